import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { Service } from '../service.js';
import { enterOrg } from './enter-org.js';
import { requireAdmin } from './context.js';
import { preflight } from './app-policy.js';
import { isRecord, withSchemaTypes, type RoutePlugin } from './route-schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Org administrators only: checked once, by the org scope, before the handler runs. */
    admin?: boolean;
  }
}

/** Route options of an administrators-only route: `server.get(path, ADMIN_ONLY, handler)`. */
export const ADMIN_ONLY = { config: { admin: true } } as const;

function adminCheck(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  requireAdmin(request);
  done();
}

/**
 * Makes a route administrators-only: its own preHandler refuses everyone else. Route hooks run
 * after the org scope's, so the caller is authenticated by then; routes without the flag pay
 * nothing. A route-group plugin may call this from its own `onRoute` hook for all its routes.
 */
export function adminOnlyRoute(route: RouteOptions): void {
  route.config = { ...route.config, admin: true };
  const hooks = route.preHandler === undefined ? [] : [route.preHandler].flat();
  if (!hooks.includes(adminCheck)) route.preHandler = [...hooks, adminCheck];
}

/**
 * What runs once the org and the caller are resolved, before any route (server.ts passes the org's
 * request policies, routes/policy-gate.ts): undefined to go on at once, or a promise of whether
 * it answered the request itself.
 */
export type OrgGate = (request: FastifyRequest, reply: FastifyReply) => undefined | Promise<boolean>;

/**
 * Everything under `/<org>/v2`: resolves the org, then authenticates the caller before any route
 * handler runs, then `gate`. Routes marked `config: { admin: true }` (see `ADMIN_ONLY`) get the administrators'
 * check as their own preHandler; other routes decide themselves whether they need a principal.
 */
export function orgScope(svc: Service, routes: RoutePlugin[], gate?: OrgGate) {
  return async (server: FastifyInstance) => {
    server.decorateRequest('ctx', null as never);
    // Callback style: most requests authenticate synchronously, and every request runs this.
    server.addHook('preHandler', (request, reply, done) => {
      const sent = isRecord(request.params) ? request.params.org : undefined;
      const entered = enterOrg(svc, typeof sent === 'string' ? sent : '', request, reply);
      // A gate that answered sent the reply: the route does not run (done is not called).
      const gated = () => {
        let answered: ReturnType<OrgGate>;
        try {
          answered = gate?.(request, reply);
        } catch (error) {
          done(error as Error);
          return;
        }
        if (answered === undefined) done();
        else answered.then((sentReply) => (sentReply ? undefined : done()), done);
      };
      if (entered instanceof Promise) entered.then(gated, done);
      else gated();
    });
    server.options('/*', async (request, reply) => {
      preflight(svc, request.ctx.org, request, reply);
      return reply.code(204).send();
    });
    server.addHook('onRoute', (route) => {
      if (route.config?.admin === true) adminOnlyRoute(route);
    });
    const typed = withSchemaTypes(server);
    for (const r of routes) await typed.register(r);
  };
}
