import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { authenticate } from './authenticate.js';
import { applyCors, enforceAppPolicy } from './app-policy.js';
import type { HeaderSink, OrgRequest, RequestContext } from './context.js';

/**
 * The org scope's steps for a request under `/<code>/v2`: resolves the org, authenticates the
 * caller and applies its app's settings (readOnly, IP lists, CORS). `request.ctx` is set when this
 * returns, or when its promise resolves (only a token's first verification is asynchronous, so
 * most requests need no promise). The org scope's preHandler and the direct instance read both
 * run exactly this.
 */
export function enterOrg(svc: Service, code: string, request: OrgRequest, reply: HeaderSink): void | Promise<void> {
  const org = svc.orgs.byCode(code);
  if (!org) throw fault('notFound', 'org', { reason: `There is no org named ${code.slice(0, 64)}.` });
  const ctx = authenticate(svc, org, request, reply);
  if (ctx instanceof Promise) return ctx.then((resolved) => applyPolicy(request, reply, resolved));
  applyPolicy(request, reply, ctx);
}

function applyPolicy(request: OrgRequest, reply: HeaderSink, ctx: RequestContext): void {
  request.ctx = ctx;
  const { app } = ctx;
  if (app) enforceAppPolicy(request, app);
  if (request.method !== 'OPTIONS') applyCors(request, reply, app);
}
