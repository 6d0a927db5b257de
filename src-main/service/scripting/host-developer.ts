/**
 * `require('developer').environment.export({manifest})` (issue 40; the original's API tests use
 * it): the org's configuration as the documents `POST /developer/environment/export` streams, for
 * org administrators only, as that route is. `environment.import` is refused: an import rewrites
 * the org's configuration and stays on its route, where it can be backed up and dry-run.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { parseManifest } from '../environment/manifest.js';
import { exportDocuments } from '../environment/export.js';
import type { HostCallContext } from './run-types.js';

export function developerHost(svc: Service, org: Org, callerFor: (call: HostCallContext) => Caller) {
  return {
    'developer.export'(this: HostCallContext, options: unknown) {
      const caller = callerFor(this);
      if (!caller.orgAdmin) {
        throw fault('accessDenied', 'principal', { reason: 'Only org administrators export the environment.' });
      }
      if (caller.scopes !== undefined) {
        const decision = checkScope(caller.scopes, { kind: 'admin', action: 'read' });
        if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
      }
      const o = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      return exportDocuments(svc, org, parseManifest(o.manifest ?? { includes: ['*'] }));
    },
  };
}
