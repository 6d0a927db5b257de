import type { FastifyRequest } from 'fastify';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import type { RequestContext } from '../http/context.js';

/**
 * Trust boundary: signed requests (decisions §4). Returns undefined when the request carries no
 * signature headers; throws a fault when the signature is bad.
 * TODO(#4): verify signatures (this stub accepts none).
 */
export function authenticateSignature(
  _svc: Service,
  _org: Org,
  _app: App,
  _request: FastifyRequest,
): RequestContext | undefined {
  return undefined;
}
