import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';

/**
 * The built-in `script` type as an org created before issue 41 stored it: its `type` enum lacks
 * `trigger` and its `configuration` lacks the trigger and job options. Returns the definition with
 * the built-in's enum and missing sub-properties, or undefined when nothing is missing (custom
 * properties and anything an administrator added are kept).
 */
export function withBuiltinScriptShape(builtin: ObjectDef, existing: ObjectDef): ObjectDef | undefined {
  if (existing.name !== 'script') return undefined;
  const next = structuredClone(existing);
  let changed = false;
  const type = next.properties.find((p) => p.name === 'type');
  const wantedTypes = builtin.properties.find((p) => p.name === 'type')?.enum ?? [];
  if (type?.enum && wantedTypes.some((t) => !type.enum!.includes(t))) {
    type.enum = [...type.enum, ...wantedTypes.filter((t) => !type.enum!.includes(t))];
    changed = true;
  }
  const config = next.properties.find((p) => p.name === 'configuration' && p.type === 'Document');
  const wanted: PropertyDef[] = builtin.properties.find((p) => p.name === 'configuration')?.properties ?? [];
  const missing = wanted.filter((p) => !(config?.properties ?? []).some((e) => e.name === p.name));
  if (config && missing.length > 0) {
    config.properties = [...(config.properties ?? []), ...missing];
    changed = true;
  }
  return changed ? next : undefined;
}
