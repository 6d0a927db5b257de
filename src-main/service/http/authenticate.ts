import { timingSafeEqual, createHash } from 'node:crypto';
import { fault, makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import type { HeaderSink, OrgRequest, RequestContext } from './context.js';
import type { RequestInput } from '../auth/authentication.js';
import { authenticateToken } from '../auth/tokens/token-auth.js';
import { authenticateSignature } from '../auth/signatures/signature-auth.js';
import { CLIENT_KEY_HEADER, CSRF_HEADER, SESSION_COOKIE } from '../auth/wire-names.js';
import { accountSnapshot } from '../access/account-snapshot.js';
import { lockedNow } from '../auth/sessions/credential-lockout.js';
import { rawBodyOf } from './raw-input.js';

export { SESSION_COOKIE, FINGERPRINT_COOKIE, CLIENT_KEY_HEADER, CSRF_HEADER } from '../auth/wire-names.js';

export const SESSION_TOUCH_RESOLUTION_MS = 1000;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Compares two strings in constant time (on fixed-length digests, so lengths leak nothing). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/**
 * Resolves `Service-Client-Key` to an enabled app of this org: its key, or its name where the app
 * allows name mapping (the original's `allowNameMapping`).
 */
export function resolveApp(svc: Service, org: Org, key: string | undefined): App | undefined {
  if (key === undefined) return undefined;
  const app = svc.apps.byKeyOrName(org.id, key);
  if (!app) {
    throw fault('notFound', 'app', { reason: 'Invalid application client api key.' });
  }
  if (!app.settings.enabled || (app.settings.expires && Date.parse(app.settings.expires) <= svc.clock.now())) {
    throw fault('accessDenied', 'app', { reason: 'The application is disabled or expired.' });
  }
  return app;
}

/**
 * Trust boundary: turns the request's credentials — a bearer token, a request signature, or an app
 * key with a session cookie, tried in that order — into a RequestContext. A session
 * that cannot be used leaves the caller anonymous and records why, so routes that need a principal
 * can say "expired" or "logged in elsewhere" rather than just "not logged in".
 */
export function authenticate(
  svc: Service,
  org: Org,
  request: OrgRequest,
  reply: HeaderSink,
): RequestContext | Promise<RequestContext> {
  // A bearer token carries its own app; it is checked before anything else. Only its signature
  // check is asynchronous (a token verified before is answered from the cache), so most requests
  // are answered without a promise.
  if (request.headers.authorization !== undefined) {
    const viaToken = authenticateToken(svc, org, requestInput(request));
    if (viaToken instanceof Promise) {
      return viaToken.then((verified) => verified ?? authenticateWithoutToken(svc, org, request, reply));
    }
    if (viaToken !== undefined) return viaToken;
  }
  return authenticateWithoutToken(svc, org, request, reply);
}

/** The request as the auth code sees it: plain values, no framework types. */
function requestInput(request: OrgRequest): RequestInput {
  const body = rawBodyOf(request);
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    ...(body === undefined ? {} : { body }),
  };
}

function authenticateWithoutToken(
  svc: Service,
  org: Org,
  request: OrgRequest,
  reply: HeaderSink,
): RequestContext | Promise<RequestContext> {
  const keyHeader = request.headers[CLIENT_KEY_HEADER];
  const app = resolveApp(svc, org, typeof keyHeader === 'string' ? keyHeader : undefined);
  if (!app && request.headers['service-client-signature'] !== undefined) {
    throw fault('accessDenied', 'invalidRequestSignature', {
      reason: 'Service-Client-Key is required for signed requests.',
    });
  }
  const viaSignature = app ? authenticateSignature(svc, org, app, requestInput(request)) : undefined;
  if (viaSignature) return viaSignature;
  const ctx: RequestContext = app ? { org, via: 'anonymous', app } : { org, via: 'anonymous' };
  const sid = request.cookies[SESSION_COOKIE];
  if (!app || app.kind !== 'session' || !sid) return ctx;

  const session = svc.sessions.find(sid);
  if (!session || session.orgId !== org.id || session.appId !== app.id) return ctx;
  const now = svc.clock.now();
  let endedReason = session.endedReason;
  if (endedReason === 'loggedInElsewhere') {
    ctx.sessionProblem = makeFault('accessDenied', 'loggedInElsewhere', {
      reason: 'This session ended because the account logged in elsewhere.',
    });
    return ctx;
  }
  if (endedReason === null && now - session.lastSeen > app.settings.authDuration * 1000) {
    svc.sessions.end(session.idHash, 'expired');
    endedReason = 'expired';
  }
  if (endedReason === 'expired') {
    ctx.sessionProblem = makeFault('accessDenied', 'sessionExpired', { reason: 'The session expired.' });
    return ctx;
  }
  if (endedReason !== null) return ctx;

  const account = accountSnapshot(svc, org, session.accountId);
  if (!account) return ctx;
  if (account.locked && lockedNow(svc, org, session.accountId)) {
    svc.sessions.end(session.idHash, 'locked');
    ctx.sessionProblem = makeFault('accessDenied', 'accountLocked', { reason: 'The account is locked.' });
    return ctx;
  }
  if (MUTATING.has(request.method) && app.settings.csrf) {
    const sent = request.headers[CSRF_HEADER.toLowerCase()];
    if (typeof sent !== 'string' || !safeEqual(sent, session.csrf)) {
      throw fault('accessDenied', 'csrfTokenMismatch', { reason: 'Missing or wrong Service-Csrf-Token header.' });
    }
  }
  // Sliding inactivity is recorded at one-second resolution: a write per request would cost more
  // than the reads it accompanies, and a second is far below any authDuration (≥ 60 s).
  if (now - session.lastSeen >= SESSION_TOUCH_RESOLUTION_MS) svc.sessions.touch(session.idHash, now);
  reply.header(CSRF_HEADER, session.csrf);
  return {
    org,
    app,
    via: 'session',
    session,
    principal: { accountId: session.accountId, email: account.email, roles: account.roles },
  };
}
