/**
 * Compiles a validated `ListQuery` into one SELECT for better-sqlite3. The table name comes from
 * the repositories (validated again here); every value is a bound parameter.
 */
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { effectiveSort } from '../../../src-shared/query/ordering.js';
import { compileWhere } from './compile-where.js';
import { propertyExpression, quoteTable } from './expressions.js';
import { and, type SqlFragment } from './sql-fragment.js';

export interface CompileOptions {
  /** Already-validated table name of the collection. */
  table: string;
  /** Conditions the service adds (access control, org scoping), AND-ed with the query's where. */
  extraWhere?: SqlFragment[];
}

/**
 * `SELECT _id, doc … ORDER BY … LIMIT ? OFFSET ?`, fetching `limit + 1` rows: the caller returns
 * the first `limit` and sets `hasMore` when the extra row came back.
 */
export function compileListQuery(query: ListQuery, opts: CompileOptions): SqlFragment {
  const conditions = [...(query.where ? [compileWhere(query.where)] : []), ...(opts.extraWhere ?? []).map((f) => ({ sql: `(${f.sql})`, params: f.params }))];
  const where = conditions.length > 0 ? and(conditions) : undefined;
  const orderBy = effectiveSort(query.sort)
    .map(({ field, direction }) => {
      if (field.access.kind !== 'value') throw new Error(`Cannot sort by ${field.path}`);
      return `${propertyExpression(field.access.storagePath)} ${direction === 1 ? 'ASC' : 'DESC'}`;
    })
    .join(', ');
  const text = `SELECT _id, doc FROM ${quoteTable(opts.table)}${where ? ` WHERE ${where.sql}` : ''} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
  return { sql: text, params: [...(where?.params ?? []), query.limit + 1, query.skip] };
}

/** Splits the `limit + 1` rows of a compiled query into the page and `hasMore`. */
export function pageOf<T>(rows: readonly T[], limit: number): { data: T[]; hasMore: boolean } {
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}

// The repositories and the service bootstrap import these from here.
export { propertyExpression } from './expressions.js';
export { registerQueryFunctions } from './functions.js';
