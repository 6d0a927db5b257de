/**
 * The org's configured policies in environment exports and imports (docs/configuration.md): one
 * `policy` document per policy, `policy.<name>`, as mdctl writes `env/policies/<name>.json` and
 * sends it back. A policy is checked whole before it is stored (configured-policy.ts): an option
 * this service does not apply refuses the import, naming it.
 */
import type { Service } from '../service.js';
import { fault } from '../../../src-shared/faults.js';
import { selects } from '../environment/manifest.js';
import { registerResourceKind } from '../environment/resource-kinds.js';
import { checkConfiguredPolicy } from './configured-policy.js';
import { saveStoredPolicy, storedPolicies } from './policy-store.js';

/** Adds `policy` documents to the service's environment exports and imports (open-service.ts). */
export function registerPolicyResources(svc: Service): void {
  registerResourceKind(svc, {
    object: 'policy',
    exportDocs: (s, org, manifest) =>
      storedPolicies(s, org.id)
        .filter((p) => selects(manifest.sections.policies, p.name))
        .map((p) => ({ object: 'policy', resource: `policy.${p.name}`, ...p.doc, name: p.name })),
    apply: (s, org, doc) => {
      const name = doc.resource.slice('policy.'.length);
      const { object: _o, resource: _r, ...body } = doc;
      if (body.name !== undefined && body.name !== name) {
        throw fault('validation', 'import', {
          path: 'name',
          reason: `The resource is policy.${name} but names ${String(body.name)}.`,
        });
      }
      checkConfiguredPolicy(name, body);
      saveStoredPolicy(s, org.id, name, { ...body, name });
    },
  });
}
