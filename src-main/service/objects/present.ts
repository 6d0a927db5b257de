import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Json } from './validate.js';
import type { StoredRecord } from './store.js';

const hiddenByDef = new WeakMap<ObjectDef, Set<string>>();

/** Names of properties never returned by reads; computed once per definition (lists call this per record). */
function hiddenProperties(def: ObjectDef): Set<string> {
  let hidden = hiddenByDef.get(def);
  if (!hidden) {
    hidden = new Set(def.properties.filter((p) => p.hidden).map((p) => p.name));
    hiddenByDef.set(def, hidden);
  }
  return hidden;
}

/** The API form of a stored record: `_id`, `object`, the caller's `access`, then its properties. */
export function presentRecord(def: ObjectDef, record: StoredRecord, access: number): Record<string, Json> {
  const out: Record<string, Json> = { _id: record._id, object: def.name, access };
  const hidden = hiddenProperties(def);
  for (const [k, v] of Object.entries(record.doc)) if (hidden.size === 0 || !hidden.has(k)) out[k] = v;
  return out;
}
