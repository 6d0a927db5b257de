import type { Service } from '../service.js';
import { accountCredentials } from '../accounts/account-lookup.js';
import { confirmAuthenticator, enrolAuthenticator, removeAuthenticator } from '../auth/sessions/authenticator.js';
import { requireSessionPrincipal } from '../http/login-session.js';
import type { TypedServer } from '../http/route-schemas.js';

const code = { type: 'string', maxLength: 16 } as const;
const password = { type: 'string', maxLength: 1024 } as const;
const passwordBody = { type: 'object', required: ['password'], properties: { password } } as const;
const codeBody = { type: 'object', required: ['code'], properties: { code } } as const;
const codeAndPasswordBody = { type: 'object', required: ['code', 'password'], properties: { code, password } } as const;

/**
 * The owner's authenticator app (TOTP), in a logged-in session only: enrol (current password),
 * confirm (first code), remove (password and code). Workflows: auth/sessions/authenticator.ts.
 */
export function accountAuthenticatorRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.post('/accounts/me/totp', { schema: { body: passwordBody } }, async (request) => {
      const { org } = request.ctx;
      const cred = accountCredentials(svc, org, requireSessionPrincipal(request).accountId);
      return { object: 'result', data: await enrolAuthenticator(svc, org, cred, request.body.password) };
    });

    server.post('/accounts/me/totp/confirm', { schema: { body: codeBody } }, async (request) => {
      const cred = accountCredentials(svc, request.ctx.org, requireSessionPrincipal(request).accountId);
      confirmAuthenticator(svc, cred, request.body.code);
      return { object: 'result', data: { active: true } };
    });

    server.delete('/accounts/me/totp', { schema: { body: codeAndPasswordBody } }, async (request) => {
      const { org } = request.ctx;
      const cred = accountCredentials(svc, org, requireSessionPrincipal(request).accountId);
      await removeAuthenticator(svc, org, cred, request.body.code, request.body.password);
      return { object: 'result', data: true };
    });
  };
}
