/**
 * The one list pipeline of records, for every reader (REST lists and list properties, the driver
 * API and scripts, views): the caller's read scope and the properties a query may use
 * (access/scope-guard.ts), the readable condition (access/acl.ts, a row filter the compiler turns
 * into SQL, so `limit`, `skip` and `hasMore` count only what the caller may see), the store, then
 * the caller's level on each row. Parsing comes before (list-from-args.ts, the driver's options,
 * a view's compile) and presentation after (presentation.ts).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { RowFilter } from '../query/row-filters.js';
import { ACCESS } from '../access/levels.js';
import { levelsOf, readableCondition } from '../access/acl.js';
import { assertQueryable, requireScope } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';

export interface ListOptions {
  /** Conditions the caller does not control (the instance a list property belongs to). */
  filters?: readonly RowFilter[];
  /**
   * A list property of an instance the caller may share: every entry is readable, at least at
   * read level, whatever its own ACL.
   */
  contextual?: boolean;
  /**
   * A level the reader holds on every instance whatever its ACL (a view's objectAcl): rows need no
   * other access when it reaches the read floor, and no row's level is below it.
   */
  everyInstance?: number;
  /** Keyset paging (walk.ts): continue after these sort-key values; answer the last row's. */
  page?: { after?: readonly unknown[]; withKeys?: boolean };
}

export interface Page {
  rows: (StoredRecord & { text: string })[];
  /** The reader's level on each row. */
  levels: number[];
  hasMore: boolean;
  /** The properties the reader's scopes let them read on every instance of the type. */
  allowed: AllowedProperties;
  /** With `page.withKeys`: the last row's sort-key values, to continue after it. */
  next?: unknown[];
}

const NO_OPTIONS: ListOptions = Object.freeze({});
const NO_FILTERS: readonly RowFilter[] = Object.freeze([]) as readonly RowFilter[];

/**
 * One page of what the caller may read of the query. Given as a function, the query is parsed
 * after the read scope is checked (a caller who may not read the type learns nothing of a query's
 * faults).
 */
export function listPage(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  queryOrParse: ListQuery | (() => ListQuery),
  opts: ListOptions = NO_OPTIONS,
): Page & { query: ListQuery } {
  const allowed = requireScope(caller, 'read', def);
  const query = typeof queryOrParse === 'function' ? queryOrParse() : queryOrParse;
  assertQueryable(allowed, query);
  const { rows, hasMore, lastKeys } = svc.store.list(
    org.id,
    def,
    query,
    rowFilters(svc, org, caller, def, opts),
    opts.page,
  );
  const levels = levelsOf(svc, org, caller, def, rows);
  const floor = opts.contextual ? Math.max(ACCESS.read, opts.everyInstance ?? 0) : (opts.everyInstance ?? 0);
  if (floor > 0) for (let i = 0; i < levels.length; i++) levels[i] = Math.max(levels[i] ?? 0, floor);
  return lastKeys
    ? { rows, levels, hasMore, allowed, query, next: lastKeys }
    : { rows, levels, hasMore, allowed, query };
}

/** How many records the caller may read match the query (after `skip`). */
export function countRecords(svc: Service, org: Org, caller: Caller, def: ObjectDef, query: ListQuery): number {
  assertQueryable(requireScope(caller, 'read', def), query);
  return svc.store.countMatching(org.id, def, query, rowFilters(svc, org, caller, def, NO_OPTIONS));
}

/** The readable condition (unless the list is contextual) and the caller's own filters. */
export function rowFilters(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  opts: ListOptions,
): readonly RowFilter[] {
  const condition = opts.contextual ? undefined : readableCondition(svc, org, caller, def, opts.everyInstance);
  const extra = opts.filters ?? NO_FILTERS;
  if (!condition) return extra;
  return extra.length === 0 ? [condition] : [condition, ...extra];
}
