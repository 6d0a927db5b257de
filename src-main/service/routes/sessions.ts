import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { pageArgs } from '../http/page-args.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import { endLiveSession, liveSessions } from '../auth/sessions/live-sessions.js';
import { auditRequest } from '../http/audit.js';

/** The org's live sessions, for administrators: list them and end one. */
export function sessionsRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.get('/sessions', ADMIN_ONLY, async (request) => {
      const { skip, limit } = pageArgs(request);
      const all = liveSessions(svc, request.ctx.org);
      return {
        object: 'list',
        // `current` marks the caller's own session, so an administrator does not end it by mistake.
        data: all
          .slice(skip, skip + limit)
          .map(({ idHash, ...shown }) => ({ ...shown, current: idHash === request.ctx.session?.idHash })),
        hasMore: all.length > skip + limit,
      };
    });

    server.delete('/sessions/:id', { ...ADMIN_ONLY, schema: { params: pathParams('id') } }, async (request) => {
      if (!endLiveSession(svc, request.ctx.org, request.params.id, 'revoked')) {
        throw fault('notFound', 'session', { reason: 'No live session has this id.' });
      }
      auditRequest(svc, request, {
        cat: 'session',
        sub: 'end',
        target: { object: 'session', _id: request.params.id },
        summary: 'Ended a live session.',
      });
      return { object: 'result', data: true };
    });
  };
}
