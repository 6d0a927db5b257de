/**
 * The org's request policies (docs/scripting.md#policies) at the one place every request under
 * `/<org>/v2` passes: the org scope's preHandler (http/org-scope.ts), right after the org and the
 * caller are resolved and before any route runs. The direct reads
 * (direct-reads.ts) leave the requests of an org with policies to this path.
 *
 * Cost: an org with no policy pays one lookup of its (empty, kept) policy table, no promise.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { anonymousCaller } from '../access/caller.js';
import { requireCaller } from '../http/context.js';
import { orgPolicies } from '../policies/policy-table.js';
import { applyPolicies, requestFacts } from '../policies/run-policy.js';
import { scriptRequestOf } from './script-runner.js';

/** What the org scope runs after entering the org: undefined (go on now) or whether it answered. */
export type RequestGate = (request: FastifyRequest, reply: FastifyReply) => undefined | Promise<boolean>;

export function policyGate(svc: Service): RequestGate {
  return (request, reply) => {
    const { org } = request.ctx;
    const policies = orgPolicies(svc, org);
    return policies.length === 0 ? undefined : gate(svc, request, reply, policies);
  };
}

async function gate(
  svc: Service,
  request: FastifyRequest,
  reply: FastifyReply,
  policies: ReturnType<typeof orgPolicies>,
): Promise<boolean> {
  const { org, app, principal } = request.ctx;
  const headers: Record<string, string> = {};
  try {
    const outcome = await applyPolicies(
      svc,
      org,
      policies,
      {
        facts: requestFacts(svc, org, {
          method: request.method,
          path: orgPath(request.url),
          ip: request.ip,
          ...(app ? { app: { key: app.key, name: app.settings.name ?? '', id: String(app.id) } } : {}),
          ...(principal ? { principal: { accountId: principal.accountId, roleIds: new Set(principal.roles) } } : {}),
        }),
        caller: principal ? requireCaller(svc, request) : anonymousCaller(),
        requester: principal?.accountId ?? `ip:${request.ip}`,
        readOnly: app?.settings.readOnly === true,
        script: scriptRequestOf(request, request.body),
      },
      headers,
    );
    if (outcome.kind === 'continue') {
      if (outcome.body) changeBody(request, outcome.body.value);
      return false;
    }
    if (outcome.kind === 'redirect') {
      reply.code(outcome.status).header('location', outcome.location).send();
      return true;
    }
    for (const [name, value] of Object.entries(outcome.headers)) reply.header(name, value);
    reply.code(outcome.status ?? 200).type('application/json; charset=utf-8');
    reply.send(JSON.stringify(outcome.body ?? null));
    return true;
  } finally {
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  }
}

/**
 * A Script policy's `body(path, value)`: the route reads the body the policy left. Only script
 * routes (`/routes/…`) read a body as it comes: every other route's body was checked against its
 * schema before this hook, so a changed one would reach its handler unchecked — refused instead.
 */
function changeBody(request: FastifyRequest, value: unknown): void {
  if (!orgPath(request.url).toLowerCase().startsWith('/routes/')) {
    throw fault('notImplemented', 'policy', {
      reason:
        'A policy changed the body of a request to a service route: only script routes (/routes/…) read a body a policy changed.',
    });
  }
  request.body = value;
}

/**
 * The path inside the org's API (`/routes/x` of `/<org>/v2/routes/x?q`), each segment decoded
 * once — as the route matcher reads it (scripting/route-scripts.ts), so `%73ecret` cannot pass a
 * policy on `secret`. A segment that does not decode is kept as sent.
 */
export function orgPath(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/^\/[^/]*\/v2(?=\/|$)/, '');
  return (
    '/' +
    path
      .split('/')
      .filter((s, i) => i > 0 || s !== '')
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      })
      .join('/')
  );
}
