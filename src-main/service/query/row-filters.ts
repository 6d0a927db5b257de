/**
 * Conditions on rows that the service adds to a caller's query and the caller does not control:
 * which rows the caller may read (access/acl.ts), which instance a list property belongs to, and
 * where a walk through a result continues. The access model states them in query terms (paths,
 * values, the connections that share a row); this module alone turns them into SQL, so the layers
 * above the store speak of queries and records, and the SQL dialect lives here and in the
 * repositories only. Every value is bound.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { jsonExtract, propertyExpression, quoteTable, type KeyColumns } from './expressions.js';
import { and, or, sql, type SqlFragment } from './sql-fragment.js';

export type RowFilter =
  /** The stored value at `path` equals `value` (an owner, a list property's context, a target). */
  | { kind: 'equals'; path: string; value: string }
  /**
   * An active connection (`state` absent or `active`) on the row's instance of `object` targets
   * `accountId` with an access of at least `floor`, each connection counting at most `cap`.
   */
  | { kind: 'sharedWith'; connections: ObjectDef; object: string; accountId: string; floor: number; cap: number }
  /** At least one of the filters holds; none at all is FALSE. */
  | { kind: 'anyOf'; filters: readonly RowFilter[] };

/** Where a table lives and the key columns SQL on it must name (objects/store.ts resolves them). */
export interface TableSource {
  table: string;
  columns: KeyColumns;
}

/** The table of another collection of the same org (the connections a `sharedWith` reads). */
export type TableOf = (def: ObjectDef) => TableSource;

/** The filters as SQL on `source` (AND-ed by the query compiler with the caller's where). */
export function compileRowFilters(filters: readonly RowFilter[], source: TableSource, tableOf: TableOf): SqlFragment[] {
  return filters.map((f) => compileRowFilter(f, source, tableOf));
}

function compileRowFilter(filter: RowFilter, source: TableSource, tableOf: TableOf): SqlFragment {
  switch (filter.kind) {
    case 'equals':
      return sql(`${propertyExpression(filter.path, source.columns)} = ?`, filter.value);
    case 'anyOf':
      return or(filter.filters.map((f) => compileRowFilter(f, source, tableOf)));
    case 'sharedWith': {
      const c = connectionExpressions(tableOf(filter.connections));
      return sql(
        `EXISTS (SELECT 1 FROM ${c.table} AS acl_c WHERE ${c.contextId} = ${quoteTable(source.table)}._id
      AND ${c.match} AND min(${c.access}, ?) >= ?)`,
        filter.object,
        filter.accountId,
        filter.cap,
        filter.floor,
      );
    }
  }
}

/**
 * The highest level active connections give `accountId` on each of `ids` (instances of `object`),
 * each connection counting at most `cap`: rows `{id, level}`. The store runs it (access/acl.ts
 * asks for a page's levels in one query).
 */
export function connectionLevelsQuery(
  connections: TableSource,
  object: string,
  accountId: string,
  ids: readonly string[],
  cap: number,
): SqlFragment {
  const c = connectionExpressions(connections);
  return sql(
    `SELECT ${c.contextId} AS id, max(min(${c.access}, ?)) AS level
       FROM ${c.table} AS acl_c
       WHERE ${c.contextId} IN (SELECT value FROM json_each(?)) AND ${c.match}
       GROUP BY 1`,
    cap,
    JSON.stringify(ids),
    object,
    accountId,
  );
}

/** Built once per connections table's key columns (the store keeps one map per table). */
const connectionSql = new WeakMap<KeyColumns, Omit<ReturnType<typeof buildConnectionExpressions>, 'table'>>();

function connectionExpressions(source: TableSource) {
  let built = connectionSql.get(source.columns);
  if (built === undefined) connectionSql.set(source.columns, (built = buildConnectionExpressions(source.columns)));
  return { ...built, table: quoteTable(source.table) };
}

/**
 * The connection row of the correlated subqueries is `acl_c`; its table's key columns apply.
 * Active connections count: `state` absent or `active` (a pending invitation grants nothing yet).
 */
function buildConnectionExpressions(columns: KeyColumns) {
  const conn = (path: string) => {
    const column = columns.get(path);
    return column === undefined ? jsonExtract('acl_c.doc', path) : `acl_c.${column}`;
  };
  return {
    contextId: conn('context._id'),
    access: conn('access'),
    match: `${conn('context.object')} = ?
  AND ${conn('target._id')} = ?
  AND coalesce(${conn('state')}, 'active') = 'active'`,
  };
}

/** A sort key as the compiler orders by it. */
export interface OrderKey {
  expression: string;
  dir: 'ASC' | 'DESC';
}

/**
 * Keyset continuation: the rows strictly after the row whose sort-key values are `values`, in the
 * order of `keys` (the effective sort, which ends with `_id`, so the order is total). SQLite puts
 * NULL before every value, so NULLs come first ascending and last descending. The first key's
 * bound is repeated on its own so that an index on it is walked from there, not from the start.
 */
export function afterCondition(keys: readonly OrderKey[], values: readonly unknown[]): SqlFragment {
  if (values.length !== keys.length) throw new Error('A continuation has one value per sort key.');
  const alternatives: SqlFragment[] = [];
  const equalSoFar: SqlFragment[] = [];
  keys.forEach((k, i) => {
    const v = values[i] ?? null;
    const after = strictlyAfter(k, v);
    if (after) alternatives.push(and([...equalSoFar, after]));
    equalSoFar.push(v === null ? sql(`${k.expression} IS NULL`) : sql(`${k.expression} = ?`, v));
  });
  const first = keys[0];
  const v0 = values[0] ?? null;
  const bound = first && v0 !== null ? leadingBound(first, v0) : undefined;
  return and([...(bound ? [bound] : []), or(alternatives)]);
}

/** Values of the key strictly after `v`; undefined when none can be (descending after NULL). */
function strictlyAfter(k: OrderKey, v: unknown): SqlFragment | undefined {
  const nullable = k.expression !== '_id';
  if (k.dir === 'ASC') return v === null ? sql(`${k.expression} IS NOT NULL`) : sql(`${k.expression} > ?`, v);
  if (v === null) return undefined;
  return nullable ? sql(`(${k.expression} < ? OR ${k.expression} IS NULL)`, v) : sql(`${k.expression} < ?`, v);
}

function leadingBound(k: OrderKey, v: unknown): SqlFragment {
  if (k.dir === 'ASC') return sql(`${k.expression} >= ?`, v);
  return k.expression === '_id' ? sql(`_id <= ?`, v) : sql(`(${k.expression} <= ? OR ${k.expression} IS NULL)`, v);
}
