/**
 * The org's configured policies in environment exports and imports (docs/configuration.md): one
 * `policy` document per policy, `policy.<name>`, as mdctl writes `env/policies/<name>.json` and
 * sends it back. A policy is checked whole before it is stored (policies/configured-policy.ts):
 * an option this service does not apply refuses the import, naming it.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { checkConfiguredPolicy } from '../policies/configured-policy.js';
import { saveStoredPolicy, storedPolicies } from '../policies/policy-store.js';
import { fault } from '../../../src-shared/faults.js';
import { selects, type Manifest } from './manifest.js';
import type { ResourceDoc } from './resources.js';

export function exportPolicies(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  return storedPolicies(svc, org.id)
    .filter((p) => selects(manifest.sections.policies, p.name))
    .map((p) => ({ object: 'policy', resource: `policy.${p.name}`, ...p.doc, name: p.name }));
}

/** Called inside the import's transaction (apply.ts). */
export function applyPolicy(svc: Service, org: Org, doc: ResourceDoc): void {
  const name = doc.resource.slice('policy.'.length);
  const { object: _o, resource: _r, ...body } = doc;
  if (body.name !== undefined && body.name !== name) {
    throw fault('validation', 'import', {
      path: 'name',
      reason: `The resource is policy.${name} but names ${String(body.name)}.`,
    });
  }
  checkConfiguredPolicy(name, body);
  saveStoredPolicy(svc, org.id, name, { ...body, name });
}
