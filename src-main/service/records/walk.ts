/**
 * Reading a result page by page as presented records: one page (the driver's cursor), or every
 * match as a stream (the driver's stream, *Many writes, a script's cursor). Pages after the first
 * continue after the previous page's last row (keyset paging, query/row-filters.ts): each page is
 * an index walk from where the last one stopped, never an OFFSET that grows with every page, and
 * a record written between pages neither repeats one nor skips one.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { effectiveSort } from '../../../src-shared/query/ordering.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { MAX_LIMIT } from '../../../src-shared/query/limits.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { listPage } from './list.js';
import { pageRecords, type Presented } from './presentation.js';
import type { Selection } from '../../../src-shared/query/references/parse-selection.js';
import { expandPage } from './expand.js';
import { addListProperties } from './list-from-args.js';

export interface PresentedPage {
  data: Presented[];
  hasMore: boolean;
  /** The last record's sort-key values: give them back as `after` for the next page. */
  next?: unknown[];
}

/**
 * One page of what the caller may read, presented; the read condition is in the SQL, so paging is
 * exact. `after`: continue after a previous page's `next` (then `query.skip` is not applied).
 */
export function readPage(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  query: ListQuery,
  after?: readonly unknown[],
  selection?: Selection,
): PresentedPage {
  if (after) assertContinuation(query, after);
  const continued = after ? { ...query, skip: 0 } : query;
  const page = listPage(svc, org, caller, def, continued, { page: after ? { after, withKeys: true } : WITH_KEYS });
  const paths = selection ? selection.paths : query.paths;
  const include = selection?.include ?? [];
  const data = pageRecords(caller, def, page, paths, (out, level, allowed) => {
    // List properties asked for by name (a patient file's connections), each a first page.
    if (include.length === 0 && !paths) return;
    addListProperties(svc, org, caller, def, out, { level, allowed, paths: paths ?? [], include, query: {} });
  });
  expandPage(svc, org, caller, data, selection);
  return page.next && page.hasMore ? { data, hasMore: true, next: page.next } : { data, hasMore: page.hasMore };
}

const WITH_KEYS = Object.freeze({ withKeys: true });

/**
 * Every record the query matches from `query.skip` on, at most `max` of them, read a page of
 * MAX_LIMIT at a time: memory stays bounded by one page whatever the result size, and no SQLite
 * statement stays open between pages (a slow reader never blocks the connection).
 */
export function* walkRecords(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  query: ListQuery,
  max = Number.POSITIVE_INFINITY,
  after?: readonly unknown[],
  selection?: Selection,
): Generator<Presented> {
  let sent = 0;
  let next = after;
  while (sent < max) {
    const limit = Math.min(MAX_LIMIT, max - sent);
    const page = readPage(svc, org, caller, def, { ...query, limit }, next, selection);
    for (const record of page.data) yield record;
    sent += page.data.length;
    if (!page.hasMore || page.data.length === 0 || !page.next) return;
    next = page.next;
  }
}

/**
 * A continuation handed back by a script (a page's `next`) is script output: one scalar per sort
 * key, or a fault. Its values only say where to continue; they are compared with sort keys the
 * caller may query anyway, so a changed one shows nothing a where could not.
 */
function assertContinuation(query: ListQuery, after: readonly unknown[]): void {
  const scalar = (v: unknown) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
  if (after.length !== effectiveSort(query.sort).length || !after.every(scalar)) {
    throw fault('invalidArgument', 'query', { reason: 'A cursor continues only where one of its pages ended.' });
  }
}
