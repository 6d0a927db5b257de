/**
 * A write's values checked against the definition (objects/validate.ts), one way for every writer:
 * refused values are one validation fault listing each problem.
 */
import { fault, makeFault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { validateInput, type Json } from '../objects/validate.js';

/** Stored properties no caller writes: the record's identity and bookkeeping. */
const SYSTEM_PROPERTIES = new Set(['_id', 'created', 'updated', 'updater', 'owner', 'object', 'access']);

export function validated(def: ObjectDef, body: unknown, mode: 'create' | 'update'): Record<string, Json> {
  const { values, faults } = validateInput(def, body, mode);
  if (faults.length > 0) throw invalid(def, faults);
  return values;
}

/** The top-level properties a patch changed, refusing the system properties (read-only). */
export function assertNotSystemProperty(def: ObjectDef, key: string): void {
  // A connection's `access` is its stored level, written like any property (and capped by
  // assertConnectionAllowed); on every other object it is the caller's level, never stored.
  if (SYSTEM_PROPERTIES.has(key) && !(key === 'access' && def.name === 'connection')) {
    throw invalid(def, [makeFault('validation', 'readOnly', { path: key, reason: `${key} is read-only.` })]);
  }
}

/** A patch may not unset a required property. */
export function assertRequiredKept(def: ObjectDef, changed: Record<string, Json>, values: Record<string, Json>): void {
  const faults = def.properties
    .filter((p) => p.required && p.name in changed && (values[p.name] === undefined || values[p.name] === null))
    .map((p) => makeFault('validation', 'required', { path: p.name, reason: `${p.name} is required.` }));
  if (faults.length > 0) throw invalid(def, faults);
}

const invalid = (def: ObjectDef, faults: ReturnType<typeof makeFault>[]) =>
  fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
