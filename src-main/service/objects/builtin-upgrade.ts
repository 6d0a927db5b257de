import type { Service } from '../service.js';
import { initialDefinitions } from './builtin-defs.js';

/** Built-in types added after an org was created (e.g. `view`) are added to it when the service opens. */
export function addMissingBuiltinDefinitions(svc: Service): void {
  const builtins = initialDefinitions().filter((d) => !d.custom);
  for (const org of svc.orgs.list()) {
    for (const def of builtins) {
      if (!svc.defs.byName(org.id, def.name)) svc.defs.save(org.id, def);
    }
  }
}
