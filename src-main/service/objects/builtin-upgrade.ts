import type { Service } from '../service.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { initialDefinitions } from './builtin-defs.js';

/**
 * Built-in types added after an org was created (e.g. `view`) are added to it when the service
 * opens, and so are built-in properties added to a built-in type since (e.g. a deployment's
 * target fields). Custom properties are left as the org's administrators made them.
 */
export function addMissingBuiltinDefinitions(svc: Service): void {
  const builtins = initialDefinitions().filter((d) => !d.custom);
  for (const org of svc.orgs.list()) {
    for (const def of builtins) {
      const existing = svc.defs.byName(org.id, def.name);
      if (!existing) {
        svc.defs.save(org.id, def);
        continue;
      }
      const missing = def.properties.filter((p) => !p.custom && !existing.properties.some((e) => e.name === p.name));
      if (missing.length > 0) svc.defs.save(org.id, { ...existing, properties: [...existing.properties, ...missing] });
    }
    const account = svc.defs.byName(org.id, 'account');
    if (account) {
      const upgraded = withUuidFingerprint(account);
      if (upgraded) svc.defs.save(org.id, upgraded);
    }
  }
}

/**
 * Orgs made before `key.fingerprint` was a UUID (issue #15 item 6) had it as free text: the stored
 * account definition gains the format; undefined when it has it already (or has no such property).
 */
function withUuidFingerprint(def: ObjectDef): ObjectDef | undefined {
  const key = def.properties.find((p) => p.name === 'key');
  const fingerprint = key?.properties?.find((p) => p.name === 'fingerprint');
  if (!fingerprint || fingerprint.format === 'uuid') return undefined;
  const next = structuredClone(def);
  const target = next.properties.find((p) => p.name === 'key')!.properties!.find((p) => p.name === 'fingerprint')!;
  target.format = 'uuid';
  target.maxLength = 36;
  return next;
}
