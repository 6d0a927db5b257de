import type { FastifyRequest } from 'fastify';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { RequestContext } from '../http/context.js';

/**
 * Trust boundary: `Authorization: Bearer <jwt>`. Returns undefined when the request carries no
 * bearer token; throws a fault when it carries a bad one.
 * TODO(#5): verify tokens (this stub accepts none).
 */
export async function authenticateToken(
  _svc: Service,
  _org: Org,
  _request: FastifyRequest,
): Promise<RequestContext | undefined> {
  return undefined;
}
