/**
 * Compiles a validated `Pipeline` into one SELECT for better-sqlite3: the stored records (the
 * caller's readable condition and the org's table first), then one sub-select per reshaping stage,
 * each handing on `_id`, the document as JSON and the order columns. Nothing is loaded into
 * JavaScript but the page asked for. Semantics: docs/query-semantics.md "Aggregation"; the
 * evaluator in src-shared/query/pipeline/ is the reference (differential tests).
 *
 * Every value is a bound parameter; property paths (validated) and numbers chosen here are inlined.
 */
import type { PropertyDef } from '../../../../src-shared/schema/types.js';
import type { Pipeline, Stage } from '../../../../src-shared/query/pipeline/ast.js';
import { compileWhere } from '../compile-where.js';
import { limitLiteral } from '../compile.js';
import { jsonPathLiteral, quoteTable, type KeyColumns } from '../expressions.js';
import { and, joinFragments, sql, type SqlFragment } from '../sql-fragment.js';
import { compileExpr, render } from './compile-expression.js';
import { compileGroup } from './compile-group.js';
import { compileProject } from './compile-project.js';
import { applyCut, eachElement, orderBy, readerOf, settled, wrapState, type State } from './state.js';

export interface PipelineCompileOptions {
  /** Already-validated table name of the collection. */
  table: string;
  columns: KeyColumns;
  /** Conditions the service adds (the caller's readable condition, a list property's context). */
  extraWhere?: readonly SqlFragment[];
  /** The record properties the caller may read (`recordProperties`); the documents hold only these. */
  properties: PropertyDef[];
  /** Whether the definition hides properties or the caller's scopes limit them. */
  pruned: boolean;
  skip: number;
  /** Rows of the page (the query fetches one more to know `hasMore`). */
  limit: number;
}

export interface CompiledPipeline extends SqlFragment {
  /** The query answers rows `{doc}`: the output document as JSON text. */
  columns: ['doc'];
}

export function compilePipeline(pipeline: Pipeline, opts: PipelineCompileOptions): CompiledPipeline {
  let n = 0;
  let state: State = {
    from: sql(quoteTable(opts.table)),
    where: (opts.extraWhere ?? []).map((f) => ({ sql: `(${f.sql})`, params: f.params })),
    doc: recordDocument(opts.properties, opts.pruned),
    id: sql('_id'),
    order: [{ expr: sql('_id'), dir: 'DESC' }],
    base: true,
    columns: opts.columns,
    alias: () => `s${++n}`,
  };
  for (const stage of pipeline.stages) state = compileStage(state, stage);
  // A grouping stays unwrapped: its ORDER BY and LIMIT go on the grouping query itself.
  if (state.cut) state = wrapState(state);
  const where = state.where.length > 0 ? and(state.where) : undefined;
  const by = orderBy(state.order);
  const parts: SqlFragment[] = [sql('SELECT '), state.doc, sql(' AS doc FROM '), state.from];
  if (where) parts.push(sql(' WHERE '), where);
  if (state.groupBy) parts.push(sql(` GROUP BY ${state.groupBy}`));
  if (by) parts.push(sql(' ORDER BY '), by);
  // A constant LIMIT, as list queries write it (compile.ts limitLiteral); the offset stays bound.
  parts.push(sql(` LIMIT ${limitLiteral(opts.limit + 1)} OFFSET ?`, opts.skip));
  return { ...joinFragments(parts, ''), columns: ['doc'] };
}

function compileStage(state: State, stage: Stage): State {
  switch (stage.kind) {
    case 'match': {
      const s = settled(state);
      return { ...s, where: [...s.where, compileWhere(stage.condition, s.base ? s.columns : undefined)] };
    }
    case 'sort': {
      const s = settled(state);
      const reader = readerOf(s);
      const keys = stage.keys.map(({ field, direction }) => ({
        expr: sql(reader.read(field.access.kind === 'value' ? field.access.storagePath : field.path)),
        dir: direction === 1 ? ('ASC' as const) : ('DESC' as const),
      }));
      // Stable: ties keep the order they came in.
      return { ...s, order: [...keys, ...s.order] };
    }
    case 'skip':
    case 'limit':
      return applyCut(state, stage.kind, stage.count);
    case 'project':
      return compileProject(settled(state), stage.fields);
    case 'addFields': {
      const s = settled(state);
      const reader = readerOf(s);
      const sets = stage.fields.map((f) => {
        const value = render(compileExpr(f.expr, reader), f.expr.type);
        return { sql: `${jsonPathLiteral(f.path)}, ${value.sql}`, params: value.params };
      });
      const doc = joinFragments([s.doc, ...sets], ', ');
      const setsId = stage.fields.find((f) => f.path === '_id');
      return wrapState(s, {
        doc: { sql: `json_set(${doc.sql})`, params: doc.params },
        ...(setsId ? { id: compileExpr(setsId.expr, reader) } : {}),
      });
    }
    case 'unwind': {
      const s = settled(state);
      const each = eachElement(s, stage.field.path);
      // `doc -> fullkey` is the element as JSON (true stays true, a document stays a document).
      const element = sql(`doc -> ${each.alias}.fullkey`);
      const doc = joinFragments([s.doc, sql(jsonPathLiteral(stage.field.path)), element], ', ');
      return wrapState(s, {
        doc: { sql: `json_set(${doc.sql})`, params: doc.params },
        order: [...s.order, { expr: sql(`${each.alias}.key`), dir: 'ASC' }],
        extraFrom: each.from,
      });
    }
    case 'count':
      return countStage(settled(state), stage.name);
    case 'group':
      return compileGroup(settled(state), stage);
  }
}

/** `{name: n}` when rows came in; no row at all when none did. */
function countStage(state: State, name: string): State {
  const where = state.where.length > 0 ? and(state.where) : undefined;
  const parts: SqlFragment[] = [
    sql(`SELECT NULL AS _id, json_object(?, count(*)) AS doc FROM `, name),
    state.from,
    ...(where ? [sql(' WHERE '), where] : []),
    sql(' HAVING count(*) > 0'),
  ];
  const inner = joinFragments(parts, '');
  const alias = state.alias();
  return {
    from: { sql: `(${inner.sql}) AS ${alias}`, params: inner.params },
    where: [],
    doc: sql(`${alias}.doc`),
    id: sql(`${alias}._id`),
    order: [],
    base: false,
    columns: state.columns,
    alias: state.alias,
  };
}

/**
 * A stored record as the pipeline's first document: `_id` first, then its stored properties; only
 * the readable ones when the definition hides some or the caller's scopes limit them.
 */
function recordDocument(properties: PropertyDef[], pruned: boolean): SqlFragment {
  if (!pruned) return sql(`json_patch(json_object('_id', _id), doc)`);
  return sql(`json_object(${membersOf(properties, '').join(', ')})`);
}

function membersOf(properties: PropertyDef[], prefix: string): string[] {
  return properties.flatMap((p) => {
    const path = prefix + p.name;
    if (path === '_id') return [`'_id', _id`];
    const literal = jsonPathLiteral(path);
    const name = `'${p.name}'`;
    if (p.type === 'Document' && !p.array && p.properties) {
      const inner = membersOf(p.properties, `${path}.`).join(', ');
      return [name, `CASE WHEN json_type(doc, ${literal}) = 'object' THEN json_object(${inner}) END`];
    }
    return [name, `doc -> ${literal}`];
  });
}
