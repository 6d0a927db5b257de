import type { FastifyInstance } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { authenticate } from './authenticate.js';

/**
 * Everything under `/<org>/v2`: resolves the org, then authenticates the caller before any route
 * handler runs (routes decide whether they need a principal).
 */
export function orgScope(svc: Service, routes: ((app: FastifyInstance) => Promise<void>)[]) {
  return async (app: FastifyInstance) => {
    app.decorateRequest('ctx', null as never);
    // Callback style: most requests authenticate synchronously, and every request runs this.
    app.addHook('preHandler', (request, reply, done) => {
      const code = (request.params as { org?: string }).org ?? '';
      const org = svc.orgs.byCode(code);
      if (!org) throw fault('notFound', 'org', { reason: `There is no org named ${code.slice(0, 64)}.` });
      const ctx = authenticate(svc, org, request, reply);
      if (ctx instanceof Promise) {
        ctx.then((resolved) => {
          request.ctx = resolved;
          done();
        }, done);
        return;
      }
      request.ctx = ctx;
      done();
    });
    for (const r of routes) await app.register(r);
  };
}
