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
import { expandReferences, isReference } from '../../../src-shared/query/references/expand.js';
import {
  parseSelection,
  type Selection,
  type SelectionArgs,
} from '../../../src-shared/query/references/parse-selection.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { scopeAllows } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import { listPage, type Page } from './list.js';
import { pageRecords, wholeRecordTexts, type Presented } from './presentation.js';
import { topLevelValueSpan } from '../objects/splice-keys.js';

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

/** The pages of `object`'s records with these ids the caller may read (none when their scopes do not reach it). */
function readablePages(svc: Service, org: Org, caller: Caller, object: string, ids: readonly string[]) {
  const def = svc.defs.byName(org.id, object);
  const pages: { def: ObjectDef; page: Page }[] = [];
  if (!def || !scopeAllows(caller, 'read', def)) return pages;
  for (let i = 0; i < ids.length; i += MAX_IN_ITEMS) {
    const chunk = ids.slice(i, i + MAX_IN_ITEMS);
    const query: ListQuery = {
      where: { kind: 'field', field: ID_FIELD, operation: { op: '$in', values: chunk } },
      sort: [],
      skip: 0,
      limit: chunk.length,
    };
    pages.push({ def, page: listPage(svc, org, caller, def, query) });
  }
  return pages;
}

function loadReadable(svc: Service, org: Org, caller: Caller, object: string, ids: readonly string[]) {
  const out = new Map<string, Presented>();
  for (const { def, page } of readablePages(svc, org, caller, object, ids)) {
    for (const record of pageRecords(caller, def, page, undefined)) out.set(record._id as string, record);
  }
  return out;
}

/** The same records as JSON text each (from their stored text when it can be). */
function loadReadableTexts(svc: Service, org: Org, caller: Caller, object: string, ids: readonly string[]) {
  const out = new Map<string, string>();
  for (const { def, page } of readablePages(svc, org, caller, object, ids)) {
    const texts =
      wholeRecordTexts(caller, def, page) ?? pageRecords(caller, def, page, undefined).map((r) => JSON.stringify(r));
    page.rows.forEach((r, i) => out.set(r._id, texts[i]!));
  }
  return out;
}

/**
 * A list page with its top-level references expanded, as JSON text: each record's stored text
 * with the referenced records' stored text spliced in where their references were — what
 * `expandPage` answers, without parsing, presenting as objects and serializing the page again
 * (that was most of an expanding page's cost: docs/SPEED.md, "`expand[]` of one reference").
 * Undefined when the selection or the records need the object form: `paths[]`, `include[]`, a
 * nested path or a reference expanded inside the referenced record, a reference whose object
 * each record names, or records not written out from their stored text.
 */
export function expandedPageText(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  page: Page,
  selection: Selection | undefined,
): string | undefined {
  if (!selection || selection.paths || selection.include.length > 0 || selection.expand.length === 0) return undefined;
  const refs = selection.expand;
  if (refs.some((r) => r.path.includes('.') || r.children.length > 0 || r.paths || r.object === undefined)) {
    return undefined;
  }
  const texts = wholeRecordTexts(caller, def, page);
  if (!texts) return undefined;
  const wanted = new Map<string, Set<string>>();
  const spans = texts.map((text) =>
    refs.flatMap((ref) => {
      const span = topLevelValueSpan(text, ref.path);
      if (!span) return [];
      const value = JSON.parse(text.slice(span.start, span.end)) as unknown;
      if (!isReference(value)) return [];
      let ids = wanted.get(ref.object!);
      if (!ids) wanted.set(ref.object!, (ids = new Set()));
      ids.add(value._id);
      return [{ ...span, object: ref.object!, id: value._id }];
    }),
  );
  const loaded = new Map<string, Map<string, string>>();
  for (const [object, ids] of wanted) loaded.set(object, loadReadableTexts(svc, org, caller, object, [...ids]));
  let out = '{"object":"list","data":[';
  texts.forEach((text, i) => {
    let record = text;
    // From the last span to the first, so each splice leaves the earlier offsets as they were.
    for (const span of [...spans[i]!].sort((a, b) => b.start - a.start)) {
      const found = loaded.get(span.object)?.get(span.id);
      if (found !== undefined) record = record.slice(0, span.start) + found + record.slice(span.end);
    }
    out += (i > 0 ? ',' : '') + record;
  });
  return `${out}],"hasMore":${page.hasMore}}`;
}
