import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { pageArgs } from '../http/page-args.js';
import type { TypedServer } from '../http/route-schemas.js';

/** `GET /outbox`: messages the service would have emailed, newest first (administrators only). */
export function outboxRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.get('/outbox', ADMIN_ONLY, async (request) => ({
      object: 'list',
      ...svc.outbox.list(request.ctx.org.id, pageArgs(request)),
    }));
  };
}
