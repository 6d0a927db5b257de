import type { Service } from '../service.js';
import { requireCaller } from '../http/context.js';
import { ANY_QUERY, pathParams, type TypedServer } from '../http/route-schemas.js';
import { presentViewPage, runView } from '../views/run-view.js';

/**
 * `GET /views/<name | _id>` runs a view (docs/views.md): the list envelope, or one record
 * per line with `Accept: application/x-ndjson`. The view records themselves are administered at
 * `/views` through the object routes (list, create, PATCH/PUT/DELETE `/views/<_id>`).
 */
export function viewRoutes(svc: Service) {
  return async (server: TypedServer) => {
    const schema = { params: pathParams('name'), querystring: ANY_QUERY };
    server.get('/views/:name', { schema }, async (request, reply) => {
      const { org } = request.ctx;
      const page = runView(svc, org, requireCaller(svc, request), request.params.name, request.query);
      // Written as text like the direct list (records from their stored text), not serialised by Fastify.
      if (wantsNdjson(request.headers.accept)) {
        return reply.type('application/x-ndjson').send(presentViewPage(page, 'ndjson'));
      }
      return reply.type('application/json; charset=utf-8').send(presentViewPage(page, 'list'));
    });
  };
}

export function wantsNdjson(accept: string | undefined): boolean {
  return accept !== undefined && accept.toLowerCase().includes('application/x-ndjson');
}
