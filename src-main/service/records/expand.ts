/**
 * References expanded in presented records, read as the caller: each referenced record comes from
 * the one list pipeline (list.ts: the caller's read scope on its object, the ACL's readable
 * condition, their level on it) and is presented as any record they read (presentation.ts). What
 * they may not read stays the bare reference. One query per referenced object per depth
 * (src-shared/query/references/expand.ts batches the ids).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { ID_FIELD } from '../../../src-shared/query/ordering.js';
import { MAX_IN_ITEMS } from '../../../src-shared/query/limits.js';
import { expandReferences } from '../../../src-shared/query/references/expand.js';
import {
  parseSelection,
  type Selection,
  type SelectionArgs,
} from '../../../src-shared/query/references/parse-selection.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { scopeAllows } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import { listPage } from './list.js';
import { pageRecords, type Presented } from './presentation.js';

/** `paths[]`, `expand[]` and `include[]` checked against the definitions of the org. */
export function selectionOf(svc: Service, org: Org, def: ObjectDef, args: SelectionArgs): Selection {
  return parseSelection(args, def, (name) => svc.defs.byName(org.id, name));
}

/** Whether a selection asks for nothing beyond a plain projection. */
export function expandsNothing(selection: Selection | undefined): boolean {
  return !selection || (selection.expand.length === 0 && selection.include.length === 0);
}

/** Expands the selection's references in `records` (in place), as `caller` reads them. */
export function expandPage(
  svc: Service,
  org: Org,
  caller: Caller,
  records: readonly Presented[],
  selection: Selection | undefined,
): void {
  if (!selection || selection.expand.length === 0 || records.length === 0) return;
  expandReferences(records, selection.expand, (object, ids) => loadReadable(svc, org, caller, object, ids));
}

function loadReadable(svc: Service, org: Org, caller: Caller, object: string, ids: readonly string[]) {
  const out = new Map<string, Presented>();
  const def = svc.defs.byName(org.id, object);
  if (!def || !scopeAllows(caller, 'read', def)) return out;
  for (let i = 0; i < ids.length; i += MAX_IN_ITEMS) {
    const chunk = ids.slice(i, i + MAX_IN_ITEMS);
    const query: ListQuery = {
      where: { kind: 'field', field: ID_FIELD, operation: { op: '$in', values: chunk } },
      sort: [],
      skip: 0,
      limit: chunk.length,
    };
    const page = listPage(svc, org, caller, def, query);
    for (const record of pageRecords(caller, def, page, undefined)) out.set(record._id as string, record);
  }
  return out;
}
