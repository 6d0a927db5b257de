import type { Service } from '../service.js';
import { presentAccount } from '../accounts/account-lookup.js';
import { verifyEmail } from '../auth/sessions/email-verification.js';
import { changeOwnPassword, requestPasswordReset, resetPassword } from '../auth/sessions/password-changes.js';
import { fingerprintOf, requireSessionApp, requireSessionPrincipal, startSession } from '../http/login-session.js';
import type { TypedServer } from '../http/route-schemas.js';

const DONE = { object: 'result', data: true } as const;
/** A ticket arrives in the spec's field `token` (account-tickets.ts on the naming). */
const token = { type: 'string', maxLength: 256 } as const;
const password = { type: 'string', maxLength: 1024 } as const;

const verifyBody = { type: 'object', required: ['token'], properties: { token } } as const;
const updatePasswordBody = {
  type: 'object',
  required: ['current', 'password'],
  properties: { current: password, password },
} as const;
const requestResetBody = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', maxLength: 254 } },
} as const;
const resetBody = { type: 'object', required: ['token', 'password'], properties: { token, password } } as const;

/**
 * The owner's side of an account's life after login (docs/sessions.md): email verification, password
 * change and reset. The workflows live in auth/sessions/ (email-verification.ts,
 * password-changes.ts); the authenticator routes are in account-authenticator.ts and the
 * administrators' in account-admin.ts. A password change works only in a logged-in session (not
 * with a token or a signed request), so a scoped token can never change how its subject logs in.
 */
export function accountLifecycleRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // --- email verification
    server.post('/accounts/verify', { schema: { body: verifyBody } }, async (request) => {
      const { org } = request.ctx;
      requireSessionApp(request);
      return presentAccount(svc, org, verifyEmail(svc, org, request.body.token));
    });

    // --- passwords
    server.post('/accounts/me/update-password', { schema: { body: updatePasswordBody } }, async (request, reply) => {
      const principal = requireSessionPrincipal(request);
      const sessionApp = requireSessionApp(request);
      const { body } = request;
      await changeOwnPassword(svc, request.ctx.org, principal.accountId, body.current, body.password);
      // Every session of the account ended; the caller continues in a fresh one (a new id).
      startSession(svc, request, reply, sessionApp, principal.accountId, fingerprintOf(request));
      return DONE;
    });

    server.post('/accounts/request-password-reset', { schema: { body: requestResetBody } }, async (request) => {
      requireSessionApp(request);
      requestPasswordReset(svc, request.ctx.org, request.body.email);
      return DONE;
    });

    server.post('/accounts/reset-password', { schema: { body: resetBody } }, async (request) => {
      requireSessionApp(request);
      await resetPassword(svc, request.ctx.org, request.body.token, request.body.password);
      return DONE;
    });
  };
}
