import type { Service } from '../service.js';
import { existingAccount, presentAccount } from '../accounts/account-lookup.js';
import { markVerified } from '../auth/sessions/email-verification.js';
import { setPasswordByAdmin } from '../auth/sessions/password-changes.js';
import { unlockAccount } from '../auth/sessions/credential-lockout.js';
import { TwoFactor } from '../auth/sessions/two-factor.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import { auditRequest } from '../http/audit.js';

const account = { ...ADMIN_ONLY, schema: { params: pathParams('id') } };
const passwordBody = {
  type: 'object',
  required: ['password'],
  properties: { password: { type: 'string', maxLength: 1024 } },
} as const;

/**
 * The administrators' account tools: verify an account, unlock it, set its password, reset its
 * second factor. Each answers the account as an administrator sees it.
 */
export function accountAdminRoutes(svc: Service) {
  const twoFactor = new TwoFactor(svc);

  return async (server: TypedServer) => {
    server.post('/accounts/:id/verify', account, async (request) => {
      const { org } = request.ctx;
      const accountId = existingAccount(svc, org, request.params.id);
      markVerified(svc, org, accountId);
      auditRequest(svc, request, {
        cat: 'account',
        sub: 'verify',
        target: { object: 'account', _id: accountId },
        summary: `Marked account ${accountId} verified.`,
        changes: ['state'],
      });
      return presentAccount(svc, org, accountId);
    });

    server.post('/accounts/:id/unlock', account, async (request) => {
      const { org } = request.ctx;
      const accountId = existingAccount(svc, org, request.params.id);
      unlockAccount(svc, org, accountId);
      auditRequest(svc, request, {
        cat: 'account',
        sub: 'unlock',
        target: { object: 'account', _id: accountId },
        summary: `Unlocked account ${accountId}.`,
        changes: ['locked'],
      });
      return presentAccount(svc, org, accountId);
    });

    server.post(
      '/accounts/:id/password',
      { ...account, schema: { ...account.schema, body: passwordBody } },
      async (request) => {
        const { org } = request.ctx;
        const accountId = existingAccount(svc, org, request.params.id);
        await setPasswordByAdmin(svc, org, accountId, request.body.password);
        auditRequest(svc, request, {
          cat: 'account',
          sub: 'setPassword',
          target: { object: 'account', _id: accountId },
          summary: `Set the password of account ${accountId}.`,
          changes: ['password'],
        });
        return presentAccount(svc, org, accountId);
      },
    );

    server.post('/accounts/:id/reset-two-factor', account, async (request) => {
      const { org } = request.ctx;
      const accountId = existingAccount(svc, org, request.params.id);
      twoFactor.reset(org.id, accountId);
      auditRequest(svc, request, {
        cat: 'account',
        sub: 'resetTwoFactor',
        target: { object: 'account', _id: accountId },
        summary: `Reset the second factor of account ${accountId}.`,
      });
      return presentAccount(svc, org, accountId);
    });
  };
}
