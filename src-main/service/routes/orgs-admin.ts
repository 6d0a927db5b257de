import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import type { TypedServer } from '../http/route-schemas.js';
import { createOrg } from '../orgs/create-org.js';

/**
 * Orgs of this data folder, for administrators of any org in it (the folder is one machine's
 * service; whoever administers one org may add another, as `npm run admin -- org create` may):
 *   GET  /developer/orgs   → list of {code, name, created}
 *   POST /developer/orgs   {code, name?, adminEmail, adminPassword} → the org and its console app key
 */
export function orgsAdminRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.get('/developer/orgs', ADMIN_ONLY, async () => {
      const data = svc.orgs.list().map((o) => ({ object: 'org', code: o.code, name: o.name, created: o.created }));
      return { object: 'list', data, hasMore: false };
    });
    const schema = { body: { type: 'object' } } as const;
    server.post('/developer/orgs', { ...ADMIN_ONLY, schema }, async (request) => {
      return createOrg(svc, request.body);
    });
  };
}
