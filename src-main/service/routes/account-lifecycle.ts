import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { accountDef, checkPasswordStrength } from '../accounts/accounts.js';
import { hashPassword, verifyPassword } from '../accounts/password.js';
import { RESET_TICKET_TTL_MS, type TicketPurpose } from '../auth/sessions/account-tickets.js';
import { TwoFactor } from '../auth/sessions/two-factor.js';
import {
  accountLocked,
  invalidCredentials,
  beginCredentialAttempt,
  failCredentialAttempt,
  releaseCredentialAttempt,
  unlockAccount,
} from '../auth/sessions/credential-lockout.js';
import { fingerprintOf, requireSessionApp, startSession } from '../http/login-session.js';
import { requirePrincipal, type Principal } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { presentRecord } from '../objects/present.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { ACCESS } from '../access/objects.js';
import { normaliseEmail, type CredentialRow } from '../accounts/credentials.js';
import { limitAnonymousRequest } from '../accounts/anonymous-limits.js';
import type { NewMessage } from '../accounts/outbox.js';

const DONE = { object: 'result', data: true } as const;
const code6 = { type: 'string', maxLength: 16 } as const;
/** A ticket arrives in the spec's field `token` (account-tickets.ts on the naming). */
const ticketBody = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['token', ...Object.keys(extra)],
  properties: { token: { type: 'string', maxLength: 256 }, ...extra },
});
const password = { type: 'string', maxLength: 1024 } as const;
const codeBody = { type: 'object', required: ['code'], properties: { code: code6 } } as const;
/** Enrolling or removing an authenticator needs the current password (issue #13 item 6). */
const passwordBody = { type: 'object', required: ['password'], properties: { password } } as const;
const codeAndPasswordBody = {
  type: 'object',
  required: ['code', 'password'],
  properties: { code: code6, password },
} as const;

/**
 * The current password, checked like a login's: a locked account is refused, a wrong one counts
 * toward lock-out. A stolen session alone must not enrol an authenticator (locking the owner out)
 * or remove one.
 */
async function requireCurrentPassword(svc: Service, org: Org, cred: CredentialRow, given: string): Promise<void> {
  if (!beginCredentialAttempt(svc, org, cred.account_id)) throw accountLocked();
  if (!(await verifyPassword(given, cred.password_hash))) {
    failCredentialAttempt(svc, org, cred.account_id);
    throw invalidCredentials('The current password is wrong.');
  }
  // The right password is no guess against the account: the reserved attempt stops counting.
  releaseCredentialAttempt(svc, org, cred.account_id);
}

/**
 * The account's life after login (decisions §5): email verification, password change and reset,
 * authenticator enrolment, and the administrator's tools — outbox, live sessions, unlock and
 * two-factor reset. Credential routes work only in a logged-in session (not with a token or a
 * signed request), so a scoped token can never change how its subject logs in.
 */
export function accountLifecycleRoutes(svc: Service) {
  const twoFactor = new TwoFactor(svc);

  return async (server: FastifyInstance) => {
    // --- email verification
    server.post<{ Body: { token: string } }>(
      '/accounts/verify',
      { schema: { body: ticketBody() } },
      async (request) => {
        const { org } = request.ctx;
        requireSessionApp(request);
        // Using the ticket and verifying are one write: a failed update leaves the ticket unused.
        const accountId = svc.db
          .transaction(() => {
            const id = consumeTicket(svc, 'verify', org, request.body.token);
            svc.store.update(org.id, accountDef(svc, org), id, { state: 'verified' });
            return id;
          })
          .immediate();
        return presentAccount(svc, org, accountId);
      },
    );

    server.post<{ Params: { id: string } }>('/accounts/:id/verify', ADMIN_ONLY, async (request) => {
      return setVerified(svc, request.ctx.org, existingAccount(svc, request.ctx.org, request.params.id));
    });

    // --- passwords
    server.post<{ Body: { current: string; password: string } }>(
      '/accounts/me/update-password',
      {
        schema: {
          body: { type: 'object', required: ['current', 'password'], properties: { current: password, password } },
        },
      },
      async (request, reply) => {
        const { org } = request.ctx;
        const principal = requireSessionPrincipal(request);
        const sessionApp = requireSessionApp(request);
        const { body } = request;
        const next = checkPasswordStrength(body.password);
        const cred = svc.credentials.byAccount(org.id, principal.accountId);
        if (!cred) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
        if (!beginCredentialAttempt(svc, org, cred.account_id)) throw accountLocked();
        if (!(await verifyPassword(body.current, cred.password_hash))) {
          failCredentialAttempt(svc, org, cred.account_id);
          throw invalidCredentials('The current password is wrong.');
        }
        svc.credentials.setPassword(org.id, cred.account_id, await hashPassword(next));
        svc.credentials.clearFailures(org.id, cred.account_id);
        svc.accountTickets.voidAll('reset', org.id, cred.account_id);
        // Every session of the account ends; the caller continues in a fresh one (a new id).
        svc.sessions.endForAccount(org.id, cred.account_id, 'passwordChanged');
        startSession(svc, request, reply, sessionApp, cred.account_id, fingerprintOf(request));
        return DONE;
      },
    );

    server.post<{ Body: { email: string } }>(
      '/accounts/request-password-reset',
      {
        schema: {
          body: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 254 } } },
        },
      },
      async (request) => {
        const { org } = request.ctx;
        requireSessionApp(request);
        const now = svc.clock.now();
        limitAnonymousRequest(svc.requestCounters, org, 'passwordReset', request.body.email, now);
        const cred = svc.credentials.byEmail(org.id, request.body.email);
        // Trust boundary: the answer is the same whether or not the email belongs to an account,
        // and so is the work (issue #13 item 7): for an unknown email the same ticket and message
        // are made and written, then rolled back, so the time taken does not tell either.
        const send = () => {
          const accountId = cred?.account_id ?? svc.store.newId();
          const recipient = cred?.email ?? normaliseEmail(request.body.email);
          const ticket = svc.accountTickets.issue('reset', org.id, accountId, RESET_TICKET_TTL_MS, now);
          svc.outbox.add(org.id, resetMessage(org, accountId, recipient, ticket), now);
        };
        if (cred) svc.db.transaction(send).immediate();
        else rolledBack(svc, send);
        return DONE;
      },
    );

    server.post<{ Body: { token: string; password: string } }>(
      '/accounts/reset-password',
      { schema: { body: ticketBody({ password }) } },
      async (request) => {
        const { org } = request.ctx;
        requireSessionApp(request);
        const { body } = request;
        const next = checkPasswordStrength(body.password);
        // The slow hash first, then the ticket and every change it allows in one write: a ticket is
        // never used up by a reset that did not happen.
        const hash = await hashPassword(next);
        svc.db
          .transaction(() => {
            const accountId = consumeTicket(svc, 'reset', org, body.token);
            svc.credentials.setPassword(org.id, accountId, hash);
            svc.accountTickets.voidAll('reset', org.id, accountId);
            unlockAccount(svc, org, accountId);
            svc.sessions.endForAccount(org.id, accountId, 'passwordReset');
          })
          .immediate();
        return DONE;
      },
    );

    // --- authenticator (TOTP)
    server.post<{ Body: { password: string } }>(
      '/accounts/me/totp',
      { schema: { body: passwordBody } },
      async (request) => {
        const { org } = request.ctx;
        const cred = ownCredentials(svc, org, requireSessionPrincipal(request));
        if (twoFactor.totpState(cred) === 'active') {
          throw fault('exists', 'totp', { reason: 'An authenticator is already active; remove it first.' });
        }
        await requireCurrentPassword(svc, org, cred, request.body.password);
        return { object: 'result', data: twoFactor.enrolTotp(org, cred) };
      },
    );

    server.post<{ Body: { code: string } }>(
      '/accounts/me/totp/confirm',
      { schema: { body: codeBody } },
      async (request) => {
        const { org } = request.ctx;
        const cred = ownCredentials(svc, org, requireSessionPrincipal(request));
        const state = twoFactor.totpState(cred);
        if (state === 'active') throw fault('exists', 'totp', { reason: 'The authenticator is already active.' });
        if (state === 'none') throw fault('notFound', 'totp', { reason: 'Start the enrolment first.' });
        if (!twoFactor.useTotp(cred, request.body.code)) {
          throw invalidCredentials('The authenticator code is wrong.');
        }
        return { object: 'result', data: { active: true } };
      },
    );

    server.delete<{ Body: { code: string; password: string } }>(
      '/accounts/me/totp',
      { schema: { body: codeAndPasswordBody } },
      async (request) => {
        const { org } = request.ctx;
        const cred = ownCredentials(svc, org, requireSessionPrincipal(request));
        if (twoFactor.totpState(cred) !== 'active')
          throw fault('notFound', 'totp', { reason: 'No active authenticator.' });
        await requireCurrentPassword(svc, org, cred, request.body.password);
        if (!beginCredentialAttempt(svc, org, cred.account_id)) throw accountLocked();
        if (!twoFactor.useTotp(cred, request.body.code)) {
          // A stolen session must not be able to guess its way to removing the authenticator.
          failCredentialAttempt(svc, org, cred.account_id);
          throw invalidCredentials('The authenticator code is wrong.');
        }
        svc.credentials.clearTotp(org.id, cred.account_id);
        svc.credentials.clearFailures(org.id, cred.account_id);
        return DONE;
      },
    );

    // --- administrators
    server.post<{ Params: { id: string } }>('/accounts/:id/unlock', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const accountId = existingAccount(svc, org, request.params.id);
      unlockAccount(svc, org, accountId);
      return presentAccount(svc, org, accountId);
    });

    // An administrator sets a new password (the strength rule applies); the account's sessions end
    // and any reset link it was sent stops working, as after a reset by the owner.
    server.post<{ Params: { id: string }; Body: { password: string } }>(
      '/accounts/:id/password',
      { ...ADMIN_ONLY, schema: { body: passwordBody } },
      async (request) => {
        const { org } = request.ctx;
        const accountId = existingAccount(svc, org, request.params.id);
        const next = checkPasswordStrength(request.body.password);
        svc.credentials.setPassword(org.id, accountId, await hashPassword(next));
        svc.accountTickets.voidAll('reset', org.id, accountId);
        svc.sessions.endForAccount(org.id, accountId, 'passwordReset');
        return presentAccount(svc, org, accountId);
      },
    );

    server.post<{ Params: { id: string } }>('/accounts/:id/reset-two-factor', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const accountId = existingAccount(svc, org, request.params.id);
      twoFactor.reset(org.id, accountId);
      return presentAccount(svc, org, accountId);
    });
  };
}

const ROLLBACK = Symbol('rollback');

/** Runs `work` in a write transaction and rolls it back: the same cost, nothing kept. */
function rolledBack(svc: Service, work: () => void): void {
  try {
    svc.db
      .transaction(() => {
        work();
        throw ROLLBACK;
      })
      .immediate();
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
}

function resetMessage(org: Org, accountId: string, email: string, ticket: string): NewMessage {
  return {
    accountId,
    kind: 'passwordReset',
    recipient: email,
    subject: 'Reset your password',
    body: `To choose a new password, send POST /${org.code}/v2/accounts/reset-password with {"token":"${ticket}","password":"<new password>"}. The token is valid for one hour and works once. If you did not ask for this, ignore this message.`,
  };
}

/** Credential changes need a logged-in session of a session app (not a token or a signature). */
function requireSessionPrincipal(request: FastifyRequest): Principal {
  const principal = requirePrincipal(request);
  if (request.ctx.via !== 'session' || !request.ctx.app) {
    throw fault('accessDenied', 'principal', { reason: 'Only a logged-in session can change its credentials.' });
  }
  return principal;
}

function ownCredentials(svc: Service, org: Org, principal: Principal) {
  const cred = svc.credentials.byAccount(org.id, principal.accountId);
  if (!cred) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
  return cred;
}

/** Uses a ticket; its faults keep the wire's word, "token" (the spec's field and errCodes). */
function consumeTicket(svc: Service, purpose: TicketPurpose, org: Org, ticket: string): string {
  const result = svc.accountTickets.consume(purpose, org.id, ticket, svc.clock.now());
  if (result.ok) return result.accountId;
  if (result.why === 'expired') throw fault('expired', 'token', { reason: 'The token expired; ask for a new one.' });
  throw fault('accessDenied', 'invalidToken', { reason: 'The token is not valid or was already used.' });
}

/** An account id from the path that names an account of this org. */
function existingAccount(svc: Service, org: Org, id: string): string {
  if (!OBJECT_ID_PATTERN.test(id)) {
    throw fault('invalidArgument', 'invalidObjectId', { path: 'id', reason: 'Account ids are 24 hex characters.' });
  }
  if (!svc.store.get(org.id, accountDef(svc, org), id)) {
    throw fault('notFound', 'instance', { reason: `There is no account ${id}.` });
  }
  return id;
}

function presentAccount(svc: Service, org: Org, accountId: string) {
  const def = accountDef(svc, org);
  const record = svc.store.get(org.id, def, accountId);
  if (!record) throw fault('notFound', 'instance', { reason: `There is no account ${accountId}.` });
  return presentRecord(def, record, ACCESS.admin);
}

function setVerified(svc: Service, org: Org, accountId: string) {
  svc.store.update(org.id, accountDef(svc, org), accountId, { state: 'verified' });
  return presentAccount(svc, org, accountId);
}
