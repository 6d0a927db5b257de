import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Json } from './validate.js';
import type { StoredRecord } from './store.js';

/** The API form of a stored record: `_id`, `object`, the caller's `access`, then its properties. */
export function presentRecord(def: ObjectDef, record: StoredRecord, access: number): Record<string, Json> {
  const out: Record<string, Json> = { _id: record._id, object: def.name, access };
  const hidden = new Set(def.properties.filter((p) => p.hidden).map((p) => p.name));
  for (const [k, v] of Object.entries(record.doc)) if (!hidden.has(k)) out[k] = v;
  return out;
}
