import type { Service } from '../service.js';
import { requireCaller } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import type { TypedServer } from '../http/route-schemas.js';
import { createOrg } from '../orgs/create-org.js';
import { isOperator, requireOperator } from '../access/operator.js';

/**
 * Orgs of this data folder (docs/orgs-and-apps.md: each org is a tenant of its own; the operator owns the
 * folder, access/operator.ts):
 *   GET  /developer/orgs   → list of {code, name, created}: every org for the operator, the caller's
 *        own org for any other administrator (administering one org says nothing about another)
 *   POST /developer/orgs   {code, name?, adminEmail, adminPassword} → the org and its console app
 *        key; the operator only (as `npm run admin -- org create` on the folder itself)
 */
export function orgsAdminRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.get('/developer/orgs', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const orgs = isOperator(svc, org, requireCaller(svc, request)) ? svc.orgs.list() : [org];
      const data = orgs.map((o) => ({ object: 'org', code: o.code, name: o.name, created: o.created }));
      return { object: 'list', data, hasMore: false };
    });
    const schema = { body: { type: 'object' } } as const;
    server.post('/developer/orgs', { ...ADMIN_ONLY, schema }, async (request) => {
      requireOperator(svc, request.ctx.org, requireCaller(svc, request), 'create orgs');
      return createOrg(svc, request.body);
    });
  };
}
