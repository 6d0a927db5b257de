/**
 * In-memory evaluator of a pipeline over JSON records (`{_id, ...stored properties}`): the
 * executable form of docs/query-semantics.md "Aggregation". The differential tests hold the SQL
 * compiler to it; the console may preview a stage over loaded rows with it.
 *
 * Order is part of the semantics: records come in `_id` descending, `$sort` is stable, `$group`
 * puts groups out by key ascending, `$unwind` keeps element order.
 */
import type { PropertyDef } from '../../schema/types.js';
import { compareSqlValues, toSqlValue, type SqlValue } from '../compare.js';
import { matchesCondition, readPath } from '../evaluate.js';
import type { Accumulator, OutputField, Pipeline, Stage } from './ast.js';
import { evaluateExpr, type Value } from './evaluate-expression.js';
import { isJsonType } from './shape.js';

type Doc = Record<string, unknown>;

/** Runs the pipeline's stages over records the caller may read (already pruned to `properties`). */
export function runPipeline(records: readonly Doc[], pipeline: Pipeline, properties?: PropertyDef[]): Doc[] {
  let docs: Doc[] = records.map((r) => (properties ? prune(r, properties) : { ...r }));
  docs.sort((x, y) => -compareSqlValues(toSqlValue(x._id), toSqlValue(y._id)));
  for (const stage of pipeline.stages) docs = runStage(docs, stage);
  return docs;
}

/** A page of the pipeline's output as the service answers it (skip and limit of the list arguments). */
export function pipelinePage(
  records: readonly Doc[],
  pipeline: Pipeline,
  skip: number,
  limit: number,
  properties?: PropertyDef[],
): { data: Doc[]; hasMore: boolean } {
  const all = runPipeline(records, pipeline, properties);
  return {
    data: all.slice(skip, skip + limit).map((d) => presentPipelineDocument(d, pipeline.object)),
    hasMore: all.length > skip + limit,
  };
}

/**
 * An output document as it goes out: members whose value is null left out (null and missing are
 * one thing), `object` added unless the pipeline named a member so.
 */
export function presentPipelineDocument(doc: Doc, object: string): Doc {
  const out = stripNulls(doc) as Doc;
  if (!Object.hasOwn(out, 'object')) out.object = object;
  return out;
}

/**
 * `presentPipelineDocument` on JSON text, as text. A document without a null anywhere and without
 * an `object` member anywhere (the common case: groups and counts) only gains `object`, spliced in
 * without parsing; any other goes through the objects.
 */
export function presentPipelineText(text: string, object: string): string {
  return presentPipelineTexts([text], object)[0]!;
}

/** `presentPipelineText` on a page of documents, the spliced member written once. */
export function presentPipelineTexts(texts: readonly string[], object: string): string[] {
  const member = `"object":${JSON.stringify(object)}}`;
  const out = new Array<string>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (text.charCodeAt(0) === 123 && text.charCodeAt(text.length - 1) === 125 && !mayNeedParsing(text)) {
      out[i] = text.length === 2 ? `{${member}` : `${text.slice(0, -1)},${member}`;
    } else {
      out[i] = JSON.stringify(presentPipelineDocument(JSON.parse(text) as Doc, object));
    }
  }
  return out;
}

/** A null somewhere, or a member named `object`: the document goes through the objects. */
function mayNeedParsing(text: string): boolean {
  return text.includes('null') || text.includes('"object":');
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = stripNulls(v);
  return out;
}

/** Keeps the members `properties` name, documents pruned inside (the caller's readable part). */
function prune(doc: Doc, properties: PropertyDef[]): Doc {
  const out: Doc = {};
  for (const p of properties) {
    if (!Object.hasOwn(doc, p.name)) continue;
    const v = doc[p.name];
    out[p.name] =
      p.type === 'Document' && !p.array && p.properties && typeof v === 'object' && v !== null && !Array.isArray(v)
        ? prune(v as Doc, p.properties)
        : v;
  }
  return out;
}

function sqlAt(doc: Doc, path: string): SqlValue {
  return toSqlValue(readPath(doc, path));
}

function runStage(docs: Doc[], stage: Stage): Doc[] {
  switch (stage.kind) {
    case 'match':
      return docs.filter((d) => matchesCondition(d, stage.condition));
    case 'sort':
      return [...docs].sort((x, y) => {
        for (const { field, direction } of stage.keys) {
          const path = field.access.kind === 'value' ? field.access.storagePath : field.path;
          const c = compareSqlValues(sqlAt(x, path), sqlAt(y, path));
          if (c !== 0) return c * direction;
        }
        return 0;
      });
    case 'skip':
      return docs.slice(stage.count);
    case 'limit':
      return docs.slice(0, stage.count);
    case 'project':
      return docs.map((d) => buildFields(stage.fields, d));
    case 'addFields':
      return docs.map((d) => {
        const out = clone(d);
        for (const { path, expr } of stage.fields) setPath(out, path, evaluateExpr(expr, d));
        return out;
      });
    case 'unwind':
      return docs.flatMap((d) => {
        const array = readPath(d, stage.field.path);
        if (!Array.isArray(array)) return [];
        return array.map((element) => {
          const out = clone(d);
          setPath(out, stage.field.path, element);
          return out;
        });
      });
    case 'count':
      return docs.length === 0 ? [] : [{ [stage.name]: docs.length }];
    case 'group':
      return group(docs, stage);
  }
}

/** Documents are plain JSON (the records and what stages build from them). */
function clone(doc: Doc): Doc {
  return JSON.parse(JSON.stringify(doc)) as Doc;
}

function buildFields(fields: OutputField[], doc: Doc): Doc {
  const out: Doc = {};
  for (const f of fields) out[f.name] = f.kind === 'value' ? evaluateExpr(f.expr, doc) : buildFields(f.fields, doc);
  return out;
}

function setPath(doc: Doc, path: string, value: Value): void {
  const segments = path.split('.');
  let node = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[segment] = {};
    node = node[segment] as Doc;
  }
  node[segments[segments.length - 1]!] = value;
}

function group(docs: Doc[], stage: Extract<Stage, { kind: 'group' }>): Doc[] {
  const { key } = stage;
  const leaves = (d: Doc): Value[] =>
    key.kind === 'null'
      ? []
      : key.kind === 'value'
        ? [evaluateExpr(key.expr, d)]
        : key.fields.map((f) => evaluateExpr(f.expr, d));
  const groups = new Map<string, { leaves: Value[]; rows: Doc[] }>();
  for (const d of docs) {
    const values = leaves(d);
    const id = JSON.stringify(values.map((v) => toSqlValue(v)));
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { leaves: values, rows: [] }));
    g.rows.push(d);
  }
  const ordered = [...groups.values()].sort((x, y) => {
    for (let i = 0; i < x.leaves.length; i++) {
      const c = compareSqlValues(toSqlValue(x.leaves[i]), toSqlValue(y.leaves[i]));
      if (c !== 0) return c;
    }
    return 0;
  });
  return ordered.map((g) => {
    const out: Doc = {};
    if (key.kind === 'value') out._id = g.leaves[0] ?? null;
    if (key.kind === 'document') out._id = Object.fromEntries(key.fields.map((f, i) => [f.name, g.leaves[i] ?? null]));
    for (const acc of stage.accumulators) out[acc.name] = accumulate(acc, g.rows);
    return out;
  });
}

function accumulate(acc: Accumulator, rows: Doc[]): Value {
  const values = acc.expr ? rows.map((r) => evaluateExpr(acc.expr!, r)) : [];
  const present = values.filter((v) => v !== null && v !== undefined);
  switch (acc.op) {
    case '$count':
      if (!acc.expr) return rows.length;
      return acc.countsElements
        ? present.reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 0)
        : present.length;
    case '$sum':
      if (acc.constant !== undefined) return acc.constant * rows.length;
      return present.reduce<number>((n, v) => n + (typeof v === 'number' ? v : 0), 0);
    case '$avg': {
      const ns = present.filter((v): v is number => typeof v === 'number');
      return ns.length === 0 ? null : ns.reduce((n, v) => n + v, 0) / ns.length;
    }
    case '$min':
    case '$max': {
      let best: Value = null;
      for (const v of present) {
        const c = best === null ? 0 : compareSqlValues(toSqlValue(v), toSqlValue(best));
        if (best === null || (acc.op === '$min' ? c < 0 : c > 0)) best = v;
      }
      return best;
    }
    case '$first':
      return values.length === 0 ? null : (values[0] ?? null);
    case '$last':
      return values.length === 0 ? null : (values[values.length - 1] ?? null);
    case '$push':
      return present;
    case '$addToSet': {
      const distinct: Value[] = [];
      for (const v of present) if (!distinct.some((d) => isSame(d, v, acc))) distinct.push(v);
      return distinct.sort((x, y) => compareSqlValues(toSqlValue(x), toSqlValue(y)));
    }
  }
}

function isSame(a: Value, b: Value, acc: Accumulator): boolean {
  if (acc.expr && isJsonType(acc.expr.type)) return JSON.stringify(a) === JSON.stringify(b);
  return compareSqlValues(toSqlValue(a), toSqlValue(b)) === 0;
}
