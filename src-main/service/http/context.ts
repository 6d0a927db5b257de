import type { FastifyRequest } from 'fastify';
import { fault, type FaultBody } from '../../../src-shared/faults.js';
import type { Session } from '../auth/sessions/sessions.js';
import type { Authentication } from '../auth/authentication.js';
import type { Service } from '../service.js';
import type { Principal } from '../access/principal.js';
import { callerOf, type Caller } from '../access/caller.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { checkScope } from '../../../src-shared/scopes/index.js';

export type { Principal } from '../access/principal.js';

/** Who is calling and through what; set by the org plugin's authentication hook. */
export interface RequestContext extends Authentication {
  session?: Session;
  /** Why a presented session was not accepted; raised only where a principal is required. */
  sessionProblem?: FaultBody;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
}

export function requirePrincipal(request: FastifyRequest): Principal {
  const { principal, sessionProblem } = request.ctx;
  if (principal) return principal;
  if (sessionProblem)
    throw fault('accessDenied', sessionProblem.errCode.split('.').pop(), { reason: sessionProblem.reason });
  throw fault('accessDenied', 'notLoggedIn', { reason: 'You must be logged in.' });
}

/** The caller of a request for the access model; throws as requirePrincipal does without one. */
export function requireCaller(svc: Service, request: FastifyRequest): Caller {
  const principal = requirePrincipal(request);
  return callerOf(svc, { ...request.ctx, principal });
}

export function isOrgAdmin(principal: Principal | undefined): boolean {
  return principal?.roles.includes(BUILTIN_ROLES.administrator) === true;
}

/**
 * Org administrators only (admin routes). A scope-limited caller (a token) also needs an
 * `admin.<action>` chain: reads need `admin.read`, everything else `admin.update` (or `admin.*`).
 */
export function requireAdmin(request: FastifyRequest): Principal {
  const principal = requirePrincipal(request);
  if (!isOrgAdmin(principal)) throw fault('accessDenied', 'principal', { reason: 'Org administrators only.' });
  const { scopes } = request.ctx;
  if (scopes !== undefined) {
    const action = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'update';
    const decision = checkScope(scopes, { kind: 'admin', action });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
  return principal;
}
