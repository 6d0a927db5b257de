import type { Service } from '../service.js';
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
  }
}
