/**
 * Host side of `require('api')` (issue 40). The original's module is its server's own view of an
 * org (read in its sandbox module and its "Cluster - Activity" test): `currentActivity()` (the
 * org's requests, scripts and workers across its cluster), `principal.create(subject)` (a principal
 * object for an account), `logs(options)` and `stats(options)` (its log and usage collections),
 * `closeOutputStream(_id)` (ends a request's stream). Here the cluster is one process: the activity
 * is this service's script pool (runner.ts `activity`), and its requests are the ones whose
 * scripts are running. `logs` is read in the prelude through `org.objects.logs` (the driver's
 * rules, as `GET /logs`); `stats` and `closeOutputStream` are refused there (nothing keeps them).
 *
 * Trust boundary: what a script reads of the service's activity and of other accounts. Activity
 * is the org's administrators' (a scoped token needs `admin.read`), as `GET /logs` is, and never
 * describes another org's runs; a principal is the caller's own, or any of the org's for an
 * administrator.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import type { HostCallContext, HostFunctions } from './run-types.js';
import { requireAdmin } from './host-developer.js';
import { subjectOf } from './host-tokens.js';
import { scriptPrincipal } from './script-as.js';

/** What kind of run a pool run is, from what it was handed (a trigger's record, a request). */
const kindOf = (context: { trigger?: unknown; request?: unknown } | undefined) =>
  context?.trigger ? 'trigger' : context?.request ? 'request' : 'script';

export function apiHost(svc: Service, org: Org, callerFor: (call: HostCallContext) => Caller): HostFunctions {
  return {
    'api.activity'(this: HostCallContext) {
      requireAdmin(callerFor(this), 'read', "Only org administrators read the org's activity.");
      const { runs, workers } = svc.scripts.activity(String(org.id));
      const scripts = runs.map((r) => ({ _id: r.runId, type: kindOf(r.request.context), depth: r.depth, ms: r.ms }));
      const requests = runs.flatMap((r) => {
        const req = r.request.context?.request;
        // A nested run (a trigger of a route's write) serves the same request as its parent.
        return req && r.depth === 0
          ? [{ method: req.method ?? 'GET', path: req.path ?? '', ms: r.ms, script: r.runId }]
          : [];
      });
      return { requests, scripts, workers };
    },
    'api.principal'(this: HostCallContext, subject: unknown) {
      const caller = callerFor(this);
      const id = subjectOf(svc, org, subject);
      if (id !== caller.accountId) {
        requireAdmin(caller, 'read', "Only org administrators read another account's principal.");
      }
      const principal = scriptPrincipal(svc, org, id);
      if (!principal)
        throw fault('notFound', 'account', { path: 'subject', reason: 'No account of this org has that _id.' });
      return principal;
    },
  };
}
