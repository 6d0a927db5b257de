import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import { CSRF_HEADER, FINGERPRINT_COOKIE, SESSION_COOKIE } from './authenticate.js';
import { requirePrincipal, type Principal } from './context.js';

/*
 * Starting a session on a browser "location" (its `service.fingerprint` cookie), shared by login,
 * registration and password changes (docs/sessions.md). It sets cookies and headers, so it lives on
 * the HTTP side of login; the session store itself is auth/sessions/.
 */

/** Session routes need `Service-Client-Key` naming a session app (docs/sessions.md). */
export function requireSessionApp(request: FastifyRequest): App {
  const { app } = request.ctx;
  if (!app) throw fault('notFound', 'app', { reason: 'Send the session application key in Service-Client-Key.' });
  if (app.kind !== 'session') throw fault('accessDenied', 'app', { reason: 'Log in through a session application.' });
  return app;
}

/** Credential changes need a logged-in session of a session app (not a token or a signature). */
export function requireSessionPrincipal(request: FastifyRequest): Principal {
  const principal = requirePrincipal(request);
  if (request.ctx.via !== 'session' || !request.ctx.app) {
    throw fault('accessDenied', 'principal', { reason: 'Only a logged-in session can change its credentials.' });
  }
  return principal;
}

/** Trust boundary: the fingerprint cookie is the client's word; it only names a location. */
export function fingerprintOf(request: FastifyRequest): string {
  const sent = request.cookies[FINGERPRINT_COOKIE];
  return sent && /^[\w-]{8,64}$/.test(sent) ? sent : randomBytes(16).toString('base64url');
}

function cookieOptions(request: FastifyRequest, org: Org) {
  return { path: `/${org.code}`, httpOnly: true, sameSite: 'strict' as const, secure: request.protocol === 'https' };
}

export function setFingerprintCookie(request: FastifyRequest, reply: FastifyReply, fingerprint: string): void {
  reply.setCookie(FINGERPRINT_COOKIE, fingerprint, {
    ...cookieOptions(request, request.ctx.org),
    // Path=/ (docs/compatibility.md#requests-cookies-and-fault-codes): the original's clients keep the fingerprint only at `/`. It
    // names a device, not an org, so every org on this service sees the same one.
    path: '/',
    maxAge: 400 * 24 * 3600,
  });
}

/** The caller's address and browser, kept with the session for administrators to recognise it. */
function clientOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 300) : null };
}

/**
 * Starts a session exactly as login does: a new session id every time (the session presented with
 * the request, if any, ends), the account's other sessions end unless the org allows several at
 * once, the cookies are set and the CSRF token is returned in its header.
 */
export function startSession(
  svc: Service,
  request: FastifyRequest,
  reply: FastifyReply,
  app: App,
  accountId: string,
  fingerprint: string,
): void {
  const { org, session } = request.ctx;
  const now = svc.clock.now();
  // "End the others, then start mine" under one write lock: two logins racing (in two processes,
  // say) cannot both end up with a live session when the org allows only one.
  const { sid, csrf } = svc.db
    .transaction(() => {
      if (session) svc.sessions.end(session.idHash, 'logout');
      if (!org.settings.allowSimultaneousLogins) svc.sessions.endForAccount(org.id, accountId, 'loggedInElsewhere');
      return svc.sessions.create(org.id, app.id, accountId, fingerprint, now, clientOf(request));
    })
    .immediate();
  reply.setCookie(SESSION_COOKIE, sid, cookieOptions(request, org));
  setFingerprintCookie(request, reply, fingerprint);
  reply.header(CSRF_HEADER, csrf);
}

/**
 * What `startSession` sends, for a registration whose email is taken (issue #13 item 7): the
 * presented session ends as it would, and cookies and the CSRF header of the same form are set,
 * but the session id is random and stored nowhere.
 */
export function startDecoySession(svc: Service, request: FastifyRequest, reply: FastifyReply, fingerprint: string) {
  const { org, session } = request.ctx;
  if (session) svc.sessions.end(session.idHash, 'logout');
  reply.setCookie(SESSION_COOKIE, randomBytes(32).toString('base64url'), cookieOptions(request, org));
  setFingerprintCookie(request, reply, fingerprint);
  reply.header(CSRF_HEADER, randomBytes(24).toString('base64url'));
}
