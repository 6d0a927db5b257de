import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { fault, makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { dummyHash, verifyPassword } from '../auth/password.js';
import { accountDef } from '../accounts/accounts.js';
import { presentRecord } from '../objects/present.js';
import { requirePrincipal } from '../http/context.js';
import { CSRF_HEADER, FINGERPRINT_COOKIE, SESSION_COOKIE } from '../http/authenticate.js';

/** Locked "until an administrator unlocks" (lockDuration 0). */
const LOCKED_FOREVER = Number.MAX_SAFE_INTEGER;

/**
 * Session routes of decisions §5 for session apps: login, logout, me, status.
 * Login never says whether the email exists, and a wrong email costs a hash like a wrong password.
 */
export function accountSessionRoutes(svc: Service) {
  return async (app: FastifyInstance) => {
    app.post(
      '/accounts/login',
      {
        schema: {
          body: {
            type: 'object',
            required: ['email', 'password'],
            properties: {
              email: { type: 'string', maxLength: 254 },
              password: { type: 'string', maxLength: 1024 },
              location: { type: 'object' },
            },
          },
        },
      },
      async (request, reply) => login(svc, request, reply),
    );

    app.post('/accounts/me/logout', async (request, reply) => {
      const { session, org } = request.ctx;
      if (session) svc.sessions.end(session.idHash, 'logout');
      reply.clearCookie(SESSION_COOKIE, { path: `/${org.code}` });
      return { object: 'result', data: true };
    });

    app.get('/accounts/me', async (request) => {
      const principal = requirePrincipal(request);
      const def = accountDef(svc, request.ctx.org);
      const record = svc.store.get(request.ctx.org.id, def, principal.accountId);
      if (!record) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
      return presentRecord(def, record, 5);
    });

    app.get('/accounts/status', async (request) => {
      const { principal, org } = request.ctx;
      if (!principal) return { object: 'result', data: { loggedin: false } };
      const def = accountDef(svc, org);
      const record = svc.store.get(org.id, def, principal.accountId);
      return {
        object: 'result',
        data: { loggedin: true, account: record ? presentRecord(def, record, 5) : null },
      };
    });
  };
}

async function login(svc: Service, request: FastifyRequest, reply: FastifyReply) {
  const { org, app } = request.ctx;
  if (!app) throw fault('notFound', 'app', { reason: 'Send the session application key in Service-Client-Key.' });
  if (app.kind !== 'session') throw fault('accessDenied', 'app', { reason: 'Log in through a session application.' });
  const { email, password } = request.body as { email: string; password: string };
  const invalid = () => fault('accessDenied', 'invalidCredentials', { reason: 'Invalid email/password combination.' });

  const cred = svc.credentials.byEmail(org.id, email);
  if (!cred) {
    await verifyPassword(password, await dummyHash());
    throw invalid();
  }
  const now = svc.clock.now();
  const def = accountDef(svc, org);
  if (cred.locked_until !== null && cred.locked_until <= now) {
    // The lock ran out: the account starts again with a clean count of failures.
    svc.credentials.clearFailures(org.id, cred.account_id);
    cred.locked_until = null;
  }
  if (cred.locked_until !== null && cred.locked_until > now) {
    await verifyPassword(password, await dummyHash());
    throw fault('accessDenied', 'invalidCredentials', {
      reason: 'Invalid email/password combination.',
      faults: [makeFault('accessDenied', 'accountLocked', { reason: 'The account is locked.' })],
    });
  }
  if (!(await verifyPassword(password, cred.password_hash))) {
    const failures = svc.credentials.recordFailure(org.id, cred.account_id);
    if (failures >= org.settings.lockAttempts) {
      const until = org.settings.lockDuration === 0 ? LOCKED_FOREVER : now + org.settings.lockDuration * 60_000;
      svc.credentials.lock(org.id, cred.account_id, until);
      svc.store.update(org.id, def, cred.account_id, { locked: true });
    }
    throw invalid();
  }
  svc.credentials.clearFailures(org.id, cred.account_id);
  const record = svc.store.get(org.id, def, cred.account_id);
  if (!record) throw invalid();
  if (record.doc.locked === true) svc.store.update(org.id, def, cred.account_id, { locked: false });

  // A new login ends the account's other sessions unless the org allows several at once.
  if (!org.settings.allowSimultaneousLogins) {
    svc.sessions.endForAccount(org.id, cred.account_id, 'loggedInElsewhere');
  }
  const fingerprint = request.cookies[FINGERPRINT_COOKIE] ?? randomBytes(16).toString('base64url');
  const { sid, csrf } = svc.sessions.create(org.id, app.id, cred.account_id, fingerprint, now);
  const secure = request.protocol === 'https';
  const cookie = { path: `/${org.code}`, httpOnly: true, sameSite: 'strict' as const, secure };
  reply.setCookie(SESSION_COOKIE, sid, cookie);
  reply.setCookie(FINGERPRINT_COOKIE, fingerprint, { ...cookie, maxAge: 400 * 24 * 3600 });
  reply.header(CSRF_HEADER, csrf);
  return presentRecord(def, { ...record, doc: { ...record.doc, locked: false } }, 5);
}
