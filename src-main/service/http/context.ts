import type { IncomingHttpHeaders } from 'node:http';
import { fault, type FaultBody } from '../../../src-shared/faults.js';
import type { Session } from '../auth/sessions/sessions.js';
import type { Authentication } from '../auth/authentication.js';
import type { Service } from '../service.js';
import type { Principal } from '../access/principal.js';
import { callerOf, type Caller, type CallerOrigin } from '../access/caller.js';
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

/**
 * What the org scope's steps (authentication, app policy, access) read of a request. A Fastify
 * request is one; the direct reads (direct-reads.ts) build one from node:http's
 * request, so both paths run the same steps.
 */
export interface OrgRequest {
  readonly method: string;
  /** The request target as sent: path and query string. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly cookies: { [name: string]: string | undefined };
  /** The peer's address (no proxy is trusted). */
  readonly ip: string;
  readonly protocol: 'http' | 'https';
  /** The Host header. */
  readonly host: string;
  readonly body?: unknown;
  ctx: RequestContext;
}

/** Where the steps write response headers: a Fastify reply, or the direct read's header list. */
export interface HeaderSink {
  header(name: string, value: string): unknown;
}

export function requirePrincipal(request: Pick<OrgRequest, 'ctx'>): Principal {
  const { principal, sessionProblem } = request.ctx;
  if (principal) return principal;
  if (sessionProblem)
    throw fault('accessDenied', sessionProblem.errCode.split('.').pop(), { reason: sessionProblem.reason });
  throw fault('accessDenied', 'notLoggedIn', { reason: 'You must be logged in.' });
}

/** The caller of a request for the access model; throws as requirePrincipal does without one. */
export function requireCaller(svc: Service, request: Pick<OrgRequest, 'ctx'> & { ip?: string }): Caller {
  const principal = requirePrincipal(request);
  const { ctx } = request;
  const { claims, via, app } = ctx;
  const exp = claims?.exp;
  // Named fields, not a spread of the context: a token's context has a dozen members, and copying
  // it per request (then reading it back) cost a token read ~3 µs more than a session's under load.
  const caller = callerOf(svc, {
    org: ctx.org,
    principal,
    scopes: ctx.scopes,
    grant: ctx.grant,
    skipAcl: ctx.skipAcl,
    bypassCreateAcl: ctx.bypassCreateAcl,
    tokenExpiry: typeof exp === 'number' ? exp : undefined,
  });
  // Who came and how, for the audit entries of what the caller writes.
  const origin: CallerOrigin = { via };
  if (app) origin.app = app.key;
  if (typeof claims?.jti === 'string') origin.jti = claims.jti;
  if (request.ip !== undefined) origin.address = request.ip;
  caller.origin = origin;
  return caller;
}

export function isOrgAdmin(principal: Principal | undefined): boolean {
  return principal?.roles.includes(BUILTIN_ROLES.administrator) === true;
}

/**
 * Org administrators only (admin routes). A scope-limited caller (a token) also needs an
 * `admin.<action>` chain: reads need `admin.read`, everything else `admin.update` (or `admin.*`).
 */
export function requireAdmin(request: Pick<OrgRequest, 'ctx' | 'method'>): Principal {
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
