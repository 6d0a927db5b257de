/**
 * The rows a pipeline has reached at one stage, as SQL: a FROM clause, conditions not yet applied,
 * the current document (JSON) and `_id`, the order the rows are in (always total, carried as
 * columns `o0, o1, …` through every sub-select, so a later `$project` never loses it), and a
 * pending `$skip`/`$limit`. `wrapState` turns it into a sub-select the next stage reads.
 */
import { assertSafePath, jsonExtract, NO_KEY_COLUMNS, propertyExpression, type KeyColumns } from '../expressions.js';
import { and, joinFragments, sql, type SqlFragment } from '../sql-fragment.js';
import type { Reader } from './compile-expression.js';

export interface OrderTerm {
  expr: SqlFragment;
  dir: 'ASC' | 'DESC';
}

export interface State {
  /** `"table"` or `(SELECT …) AS sN` (with joins), and its parameters. */
  from: SqlFragment;
  where: SqlFragment[];
  doc: SqlFragment;
  id: SqlFragment;
  order: OrderTerm[];
  /** The stored records' table, read directly (key columns apply). */
  base: boolean;
  columns: KeyColumns;
  cut?: { offset?: number; limit?: number };
  /**
   * The rows are groups of the FROM's rows (`$group`): `doc`, `id` and `order` are aggregate
   * expressions. Kept unwrapped so the query's own ORDER BY and LIMIT end the grouping early when
   * SQLite walks an index in key order; any stage that reads the groups wraps it first.
   */
  groupBy?: string;
  /** Aliases are numbered per compiled query. */
  alias: () => string;
}

/** How expressions read a state's rows: key columns on the table, the `doc` column otherwise. */
export function readerOf(state: State): Reader {
  return {
    read: (path) =>
      state.base ? propertyExpression(path, state.columns) : path === '_id' ? '_id' : jsonExtract('doc', path),
    readJson: (path) => (path === '_id' ? '_id' : jsonExtract('doc', path)),
  };
}

/** `ORDER BY` text of the order terms (with their parameters). */
export function orderBy(order: readonly OrderTerm[]): SqlFragment | undefined {
  if (order.length === 0) return undefined;
  return joinFragments(
    order.map((t) => ({ sql: `${t.expr.sql} ${t.dir}`, params: t.expr.params })),
    ', ',
  );
}

/**
 * `SELECT <id> AS _id, <doc> AS doc, <order> AS o0… FROM … WHERE … [ORDER BY … LIMIT … OFFSET …]`
 * as the FROM of a new state. `columns` override what is selected (a stage's new document).
 */
export function wrapState(
  state: State,
  select: { id?: SqlFragment; doc?: SqlFragment; order?: OrderTerm[]; extraFrom?: SqlFragment } = {},
): State {
  const id = select.id ?? state.id;
  const doc = select.doc ?? state.doc;
  const order = select.order ?? state.order;
  const alias = state.alias();
  const list = joinFragments(
    [
      { sql: `${id.sql} AS _id`, params: id.params },
      { sql: `${doc.sql} AS doc`, params: doc.params },
      ...order.map((t, i) => ({ sql: `${t.expr.sql} AS o${i}`, params: t.expr.params })),
    ],
    ', ',
  );
  const from = select.extraFrom ? joinFragments([state.from, select.extraFrom], ', ') : state.from;
  const where = state.where.length > 0 ? and(state.where) : undefined;
  const parts: SqlFragment[] = [sql('SELECT '), list, sql(' FROM '), from];
  if (where) parts.push(sql(' WHERE '), where);
  if (state.groupBy) parts.push(sql(` GROUP BY ${state.groupBy}`));
  if (state.cut) {
    const by = orderBy(state.order);
    if (by) parts.push(sql(' ORDER BY '), by);
    parts.push(sql(' LIMIT ? OFFSET ?', state.cut.limit ?? -1, state.cut.offset ?? 0));
  }
  const inner = joinFragments(parts, '');
  return {
    from: { sql: `(${inner.sql}) AS ${alias}`, params: inner.params },
    where: [],
    doc: sql(`${alias}.doc`),
    id: sql(`${alias}._id`),
    order: order.map((t, i) => ({ expr: sql(`${alias}.o${i}`), dir: t.dir })),
    base: false,
    columns: NO_KEY_COLUMNS,
    alias: state.alias,
  };
}

/** The state with a pending cut (or grouping) applied in a sub-select first, so what follows sees its rows. */
export function settled(state: State): State {
  return state.cut || state.groupBy ? wrapState(state) : state;
}

/** `$skip` / `$limit` in order: a skip after a limit needs the limit applied first. */
export function applyCut(state: State, kind: 'skip' | 'limit', n: number): State {
  if (kind === 'skip') {
    const s = state.cut?.limit !== undefined ? wrapState(state) : state;
    return { ...s, cut: { ...s.cut, offset: (s.cut?.offset ?? 0) + n } };
  }
  const limit = Math.min(state.cut?.limit ?? n, n);
  return { ...state, cut: { ...state.cut, limit } };
}

/** `json_each(doc, '$.path')` joined to the state's rows, as `uN`. */
export function eachElement(state: State, path: string): { from: SqlFragment; alias: string } {
  assertSafePath(path);
  const alias = state.alias();
  return { from: sql(`json_each(doc, '$.${path}') AS ${alias}`), alias };
}
