/** The total order a list query is returned in (docs/query-semantics.md, "Sorting"). */
import type { FieldRef, SortKey } from './ast.js';

export const ID_FIELD: FieldRef = { path: '_id', type: 'ObjectId', access: { kind: 'value', storagePath: '_id' } };

/**
 * No sort: `_id` descending (newest first). Otherwise the caller's keys, then `_id` ascending
 * unless `_id` is already a key, so that ties never depend on storage order and skip paging is
 * stable.
 */
export function effectiveSort(sort: SortKey[]): SortKey[] {
  if (sort.length === 0) return [{ field: ID_FIELD, direction: -1 }];
  if (sort.some((k) => k.field.path === '_id')) return sort;
  return [...sort, { field: ID_FIELD, direction: 1 }];
}
