/**
 * The SQL expressions that read a property. Shared by queries and index DDL: SQLite only uses an
 * expression index when the query's expression is textually the same, so both must come from here.
 */
import { PATH_SEGMENT_PATTERN } from '../../../src-shared/schema/types.js';

/**
 * The record column, aliases the compiler gives json_each rows (`j1`, `j2`, …), and the connection
 * row of the ACL's subqueries (`acl_c.doc`).
 */
const SAFE_BASE = /^(?:doc|j\d+\.value|acl_c\.doc)$/;

/**
 * Throws unless every segment matches PATH_SEGMENT_PATTERN. The parser already guarantees it;
 * this is the second lock on the door, because the path is inlined into SQL text below.
 */
export function assertSafePath(path: string): void {
  if (!path.split('.').every((segment) => PATH_SEGMENT_PATTERN.test(segment))) {
    throw new Error(`Refusing to inline unsafe property path ${JSON.stringify(path)} into SQL.`);
  }
}

/** `json_extract(<base>, '$.a.b')` with the path inlined as a literal (so it matches the index). */
export function jsonExtract(base: string, path: string): string {
  if (!SAFE_BASE.test(base)) throw new Error(`Unknown JSON base expression ${JSON.stringify(base)}.`);
  assertSafePath(path);
  return `json_extract(${base}, '$.${path}')`;
}

/**
 * A table's key columns, by the storage path each holds (`name.last`, `owner._id`): stored
 * generated columns `GENERATED ALWAYS AS (json_extract(doc, '$.<path>')) STORED`, declared without
 * a type so SQLite keeps each value as `json_extract` gives it. Tables get them for the paths of
 * their non-unique indexes (`keyColumnPaths`), and those indexes are built over the columns: an
 * index over a column builds without parsing every document once more per index, which is most of
 * what a bulk load's index rebuild costs. SQLite matches a query's `json_extract` to an expression
 * index only, never to a column, so every query on such a table names the column instead
 * (`propertyExpression`). Tables created before key columns existed have none and keep their
 * expression indexes; the map is read from each table (`readKeyColumns`), not assumed.
 */
export type KeyColumns = ReadonlyMap<string, string>;
export const NO_KEY_COLUMNS: KeyColumns = new Map();

/** The quoted name of a storage path's key column: `"k.name.last"` (dots cannot collide). */
export function keyColumnName(path: string): string {
  assertSafePath(path);
  return `"k.${path}"`;
}

/**
 * The expression for a stored property path of a record: `_id` is its own column, a path with a
 * key column is that column, anything else `json_extract(doc, …)`.
 */
export function propertyExpression(path: string, columns: KeyColumns = NO_KEY_COLUMNS): string {
  if (path === '_id') return '_id';
  return columns.get(path) ?? jsonExtract('doc', path);
}

/** A JSON path literal for table-valued functions (`json_each(doc, '$.roles')`). */
export function jsonPathLiteral(path: string): string {
  assertSafePath(path);
  return `'$.${path}'`;
}

/** Validates and double-quotes a table name supplied by the repositories. */
export function quoteTable(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(table)) throw new Error(`Invalid table name ${JSON.stringify(table)}.`);
  return `"${table}"`;
}
