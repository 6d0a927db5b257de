/**
 * `$group` → two sub-selects: the inner computes each key part (`k0…`) and accumulator input
 * (`a0…`) once per row, beside the rows' order (`o0…`); the outer groups by the key parts. A key
 * that is a stored key column (`name.last`) stays that column, so SQLite groups by walking its
 * index. Groups come out by key ascending; `$first`, `$last` and `$push` see the rows in order.
 */
import type { Accumulator, Expr, Stage } from '../../../../src-shared/query/pipeline/ast.js';
import { isJsonType } from '../../../../src-shared/query/pipeline/shape.js';
import { and, joinFragments, sql, type SqlFragment } from '../sql-fragment.js';
import { compileExpr, render } from './compile-expression.js';
import { orderBy, readerOf, type OrderTerm, type State } from './state.js';

type GroupStage = Extract<Stage, { kind: 'group' }>;

export function compileGroup(state: State, stage: GroupStage): State {
  const reader = readerOf(state);
  const keyExprs: Expr[] =
    stage.key.kind === 'null'
      ? []
      : stage.key.kind === 'value'
        ? [stage.key.expr]
        : stage.key.fields.map((f) => f.expr);
  const inputs = stage.accumulators.map((a) => a.expr);
  const g = state.alias();
  const inner = innerSelect(state, [
    ...keyExprs.map((e, i) => named(compileExpr(e, reader), `k${i}`)),
    ...inputs.flatMap((e, i) => (e ? [named(compileExpr(e, reader), `a${i}`)] : [])),
    ...state.order.map((t, i) => named(t.expr, `o${i}`)),
  ]);
  const rowOrder = orderBy(state.order.map((t, i) => ({ expr: sql(`${g}.o${i}`), dir: t.dir })));
  const key = (i: number) => sql(`${g}.k${i}`);
  let id: SqlFragment = sql('NULL');
  let idMember: SqlFragment | undefined;
  if (stage.key.kind === 'value') {
    id = key(0);
    idMember = render(key(0), stage.key.expr.type);
  } else if (stage.key.kind === 'document') {
    const members = joinFragments(
      stage.key.fields.map((f, i) => member(f.name, render(key(i), f.expr.type))),
      ', ',
    );
    id = { sql: `json_object(${members.sql})`, params: members.params };
    idMember = { sql: `json(${id.sql})`, params: id.params };
  }
  const members = [
    ...(idMember ? [member('_id', idMember)] : []),
    ...stage.accumulators.map((a, i) => member(a.name, render(accumulate(a, `${g}.a${i}`, rowOrder), a.type))),
  ];
  const doc = joinFragments(members, ', ');
  const keyOrder: OrderTerm[] = keyExprs.map((_, i) => ({ expr: key(i), dir: 'ASC' }));
  const groupBy = keyExprs.length === 0 ? 'NULL' : keyExprs.map((_, i) => `${g}.k${i}`).join(', ');
  return {
    from: { sql: `(${inner.sql}) AS ${g}`, params: inner.params },
    where: [],
    groupBy,
    doc: { sql: `json_object(${doc.sql})`, params: doc.params },
    id,
    order: keyOrder,
    base: false,
    columns: state.columns,
    alias: state.alias,
  };
}

function named(value: SqlFragment, name: string): SqlFragment {
  return { sql: `${value.sql} AS ${name}`, params: value.params };
}

function member(name: string, value: SqlFragment): SqlFragment {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid output name ${name}.`);
  return { sql: `'${name}', ${value.sql}`, params: value.params };
}

function innerSelect(state: State, columns: SqlFragment[]): SqlFragment {
  const list = columns.length > 0 ? joinFragments(columns, ', ') : sql('1 AS one');
  const where = state.where.length > 0 ? and(state.where) : undefined;
  return joinFragments(
    [sql('SELECT '), list, sql(' FROM '), state.from, ...(where ? [sql(' WHERE '), where] : [])],
    '',
  );
}

/** One accumulator over the group's rows (`input` is the inner column of its expression). */
function accumulate(acc: Accumulator, input: string, rowOrder: SqlFragment | undefined): SqlFragment {
  const ordered = (value: SqlFragment, extra = ''): SqlFragment => ({
    sql: `json_group_array(${extra}${value.sql}${rowOrder ? ` ORDER BY ${rowOrder.sql}` : ''})`,
    params: [...value.params, ...(rowOrder?.params ?? [])],
  });
  const json = acc.expr !== undefined && isJsonType(acc.expr.type);
  switch (acc.op) {
    case '$count':
      if (!acc.expr) return sql('count(*)');
      return acc.countsElements ? sql(`coalesce(sum(json_array_length(${input})), 0)`) : sql(`count(${input})`);
    case '$sum':
      return acc.constant !== undefined ? sql('(? * count(*))', acc.constant) : sql(`total(${input})`);
    case '$avg':
      return sql(`avg(${input})`);
    case '$min':
    case '$max':
      return sql(`${acc.op === '$min' ? 'min' : 'max'}(${input})`);
    case '$first':
    case '$last': {
      const all = ordered(json ? sql(`json(${input})`) : sql(input));
      const at = acc.op === '$first' ? `'$[0]'` : `'$[#-1]'`;
      return { sql: `(${all.sql} ${json ? '->' : '->>'} ${at})`, params: all.params };
    }
    case '$push': {
      const all = ordered(render(sql(input), acc.expr!.type));
      return { sql: `${all.sql} FILTER (WHERE ${input} IS NOT NULL)`, params: all.params };
    }
    case '$addToSet': {
      const value = render(sql(input), acc.expr!.type);
      return {
        sql: `json_group_array(DISTINCT ${value.sql} ORDER BY ${value.sql}) FILTER (WHERE ${input} IS NOT NULL)`,
        params: [...value.params, ...value.params],
      };
    }
  }
}
