/** The total order a list query is returned in (docs/query-semantics.md, "Sorting"). */
import type { FieldRef, SortKey } from './ast.js';

export const ID_FIELD: FieldRef = { path: '_id', type: 'ObjectId', access: { kind: 'value', storagePath: '_id' } };

/**
 * No sort: `_id` descending (newest first). Otherwise the caller's keys, then `_id` in the
 * direction of the last key unless `_id` is already a key, so that ties never depend on storage
 * order and skip paging is stable. Following the last key's direction lets an index on
 * `(key, _id)` answer both `{key: 1}` and `{key: -1}` as one ordered walk, forwards or backwards.
 */
export function effectiveSort(sort: SortKey[]): SortKey[] {
  if (sort.length === 0) return [{ field: ID_FIELD, direction: -1 }];
  if (sort.some((k) => k.field.path === '_id')) return sort;
  return [...sort, { field: ID_FIELD, direction: sort[sort.length - 1]!.direction }];
}
