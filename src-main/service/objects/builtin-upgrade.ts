import type { Service } from '../service.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { initialDefinitions } from './builtin-defs.js';
import { withBuiltinScriptShape } from './builtin-script-upgrade.js';

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
      const nested = withMissingNested(def, existing);
      if (missing.length > 0 || nested) {
        const base = nested ?? existing;
        svc.defs.save(org.id, { ...base, properties: [...base.properties, ...missing] });
      }
      // The script type's enum gains what was added since (issue 41's trigger).
      const script = withBuiltinScriptShape(def, svc.defs.byName(org.id, def.name) ?? existing);
      if (script) svc.defs.save(org.id, script);
    }
    const account = svc.defs.byName(org.id, 'account');
    if (account) {
      const upgraded = withBuiltinFormats(account);
      if (upgraded) svc.defs.save(org.id, upgraded);
    }
    const script = svc.defs.byName(org.id, 'script');
    if (script) {
      const upgraded = withRouteAclFormat(script);
      if (upgraded) svc.defs.save(org.id, upgraded);
    }
  }
}

/**
 * Built-in sub-properties of a built-in Document property added since (e.g. a script's
 * `configuration.export`); undefined when none is missing.
 */
function withMissingNested(def: ObjectDef, existing: ObjectDef): ObjectDef | undefined {
  let next: ObjectDef | undefined;
  for (const prop of def.properties) {
    if (prop.type !== 'Document' || !prop.properties) continue;
    const index = existing.properties.findIndex((e) => e.name === prop.name && e.type === 'Document');
    const have = index === -1 ? undefined : existing.properties[index];
    const add = prop.properties.filter((p) => !(have?.properties ?? []).some((e) => e.name === p.name));
    if (!have || add.length === 0) continue;
    next ??= structuredClone(existing);
    const target = next.properties[index];
    if (target) target.properties = [...(target.properties ?? []), ...add];
  }
  return next;
}

/**
 * Formats the account's built-in properties gained after orgs were made: `key.fingerprint` a UUID
 * (issue #15 item 6, free text before), `email` an email address (any string before). The stored
 * account definition gains them; undefined when it has them already.
 */
function withBuiltinFormats(def: ObjectDef): ObjectDef | undefined {
  const next = structuredClone(def);
  const fingerprint = next.properties.find((p) => p.name === 'key')?.properties?.find((p) => p.name === 'fingerprint');
  const email = next.properties.find((p) => p.name === 'email');
  let changed = false;
  if (fingerprint && fingerprint.format !== 'uuid') {
    Object.assign(fingerprint, { format: 'uuid', maxLength: 36 });
    changed = true;
  }
  if (email && email.format !== 'email') {
    email.format = 'email';
    changed = true;
  }
  return changed ? next : undefined;
}

/**
 * A script's `configuration.acl` takes the original's `{type, target}` entries (issue 40): the
 * stored definition gains `format: 'aclEntry'`; undefined when it has it already.
 */
function withRouteAclFormat(def: ObjectDef): ObjectDef | undefined {
  const next = structuredClone(def);
  const acl = next.properties.find((p) => p.name === 'configuration')?.properties?.find((p) => p.name === 'acl');
  if (!acl || acl.format === 'aclEntry') return undefined;
  acl.format = 'aclEntry';
  return next;
}
