/**
 * A decorated trigger's `if` (issue 41): `@trigger('create.before', {object, if: {...}})` runs the
 * method only when the expression, evaluated against the record, is true. In the original it is
 * an expression of its expression engine, written as MongoDB writes one (`'$c_title'` is a
 * property of the record, other strings are text, `{$op: args}` an operator, `'$$this'` a
 * variable; its tests: `$eq`, `$cond`, `$not`, `$or`, `$find`, `$reduce`, `$toBool`, `$cache`…).
 *
 * Here it is read into the pipeline language's expressions (src-shared/query/pipeline: the same
 * parser, type checks and in-memory evaluator as `GET /<objects>?pipeline=`) plus the operators
 * only the evaluator runs (parse-evaluator-only.ts: `$toBool`, `$find`, `$reduce`, `$let`,
 * `$cache`, and the variables `$$ROOT`, `$$CURRENT`, `$$this`, `$$value`), against the schema of
 * the trigger's object, so it is checked when the library is saved: an operator neither has
 * (`$dbNext`, `$pathTo`…), an unknown property or variable, or a part that is not a literal (a
 * constant of another library that imported-constants.ts cannot read) refuses the save with a
 * fault naming it (trigger-rules.ts) — never a trigger that silently runs always.
 */
import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { allProperties } from '../../../src-shared/schema/types.js';
import type { JsonValue } from '../../../src-shared/query/json.js';
import type { Expr, ValueType } from '../../../src-shared/query/pipeline/ast.js';
import { MAX_STEPS, type EvalEnv } from '../../../src-shared/query/pipeline/evaluate-evaluator-only.js';
import { parseExpr } from '../../../src-shared/query/pipeline/parse-expression.js';
import { evaluateExpr, truthy } from '../../../src-shared/query/pipeline/evaluate-expression.js';
import { recordProperties } from '../../../src-shared/query/pipeline/shape.js';
import type { Doc } from '../objects/validate.js';

/** The options of `@trigger` this service reads; any other refuses the save (trigger-rules.ts). */
export const TRIGGER_OPTIONS: ReadonlySet<string> = new Set([
  'object',
  'event',
  'weight',
  'principal',
  'inline',
  'active',
  'name',
  'label',
  'if',
  'paths',
]);

const MAX_TRANSLATED_NODES = 2000;
/** Operators whose operand is a literal as written (parse-expression.ts `parseLiteral`). */
const TYPED_LITERALS = new Set(['$literal', '$string', '$number', '$integer', '$boolean', '$date', '$objectId']);

/** A parsed `if`, or the fault it was refused with (a schema changed since the library was saved). */
export type TriggerCondition = { expr: Expr } | { fault: FaultBody };

const refuse = (reason: string) => fault('validation', 'trigger.if', { path: 'if', reason });

/** `'$ROOT.a'` / `'$CURRENT.a'`: the original reads a `$` path under `$$ROOT`, the record here. */
const ROOT_PREFIX = /^(ROOT|CURRENT)(\.|$)/;

/**
 * The original's form into the pipeline language's: `'$a.b'` is the path `a.b`, `'$$x.a'` the
 * variable `x` at `a` (`$$ROOT.a` and `$$CURRENT.a` the record's path `a`), other strings are
 * `{$literal}`, `$dateToString`'s format stays text. Non-literal options (kept at save as
 * `{$expression}`; imported-constants.ts resolves those it can first) are refused by name.
 */
function translate(value: unknown, count: { n: number }, rawText = false): JsonValue {
  if (++count.n > MAX_TRANSLATED_NODES) throw refuse(`An if expression has at most ${MAX_TRANSLATED_NODES} parts.`);
  if (typeof value === 'string') {
    if (rawText) return value;
    const variable = value.startsWith('$$');
    if (value.startsWith('$')) {
      const path = value.slice(variable ? 2 : 1);
      const root = ROOT_PREFIX.exec(path);
      if (root && path.length > root[0].length) return path.slice(root[0].length);
      return variable || root ? { $$variable: path } : path;
    }
    return { $literal: value };
  }
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map((v, i) => translate(v, count, rawText && i === 0));
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === '$expression') {
    throw refuse(
      `${String(entries[0]![1]).slice(0, 80)} is not a literal: a trigger's if may name a constant of the library or of a library it imports only when its value is written as a literal there (docs/scripting.md#triggers); write the expression itself.`,
    );
  }
  return Object.fromEntries(
    entries.map(([k, v]) => {
      if (TYPED_LITERALS.has(k)) return [k, v as JsonValue];
      // $find's `as` and $let's variable names are names, not expressions.
      if (k === 'as' && typeof v === 'string') return [k, v];
      if (k === 'vars' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        return [k, Object.fromEntries(Object.entries(v).map(([n, x]) => [n, translate(x, count)]))];
      }
      if (k === '$dateToString') {
        const operand = Array.isArray(v)
          ? v.map((x, i) => translate(x, count, i === 0))
          : Object.fromEntries(
              Object.entries(v as object).map(([ok, ov]) => [ok, translate(ov, count, ok === 'format')]),
            );
        return [k, operand as JsonValue];
      }
      return [k, translate(v, count)];
    }),
  );
}

/** Reads `value` (the `if` option) against `def`'s schema; throws a `validation.trigger.if` fault naming what it refuses. */
export function parseTriggerCondition(def: ObjectDef, value: unknown): Expr {
  const scope = {
    properties: recordProperties(def, 'all'),
    records: true,
    head: true,
    allRecordProperties: allProperties(def),
    options: {},
  };
  const record: ValueType = { type: 'Document', properties: scope.properties };
  const variables = new Map<string, ValueType>([
    ['ROOT', record],
    ['CURRENT', record],
  ]);
  try {
    return parseExpr(translate(value, { n: 0 }), { scope, variables }, 'if', 0);
  } catch (e) {
    if (!(e instanceof FaultError) || e.fault.errCode === 'service.validation.trigger.if') throw e;
    throw refuse(`${e.fault.path ?? 'if'}: ${e.fault.reason ?? e.fault.message}`);
  }
}

/**
 * The condition of a trigger as its table keeps it: parsed, or the fault a run will answer (an
 * `if` or an option `unread` that a library saved before these rules holds).
 */
export function triggerCondition(def: ObjectDef | undefined, value: unknown, unread?: string): TriggerCondition {
  try {
    if (unread !== undefined) {
      throw fault('validation', 'trigger.option', {
        reason: `The @trigger option ${unread.slice(0, 40)} is not supported.`,
      });
    }
    if (value === undefined) return { expr: { kind: 'literal', value: true, type: { type: 'Boolean' } } };
    if (!def) throw refuse("A trigger's if needs one object type (not *).");
    return { expr: parseTriggerCondition(def, value) };
  } catch (e) {
    if (e instanceof FaultError) return { fault: e.fault };
    throw e;
  }
}

/**
 * Whether the trigger runs for `doc` (`{_id, …stored properties}`); `cache` reads the run's org
 * cache for `$cache`. A refused `if`, or one past the evaluation limits, throws its fault.
 */
export function conditionHolds(condition: TriggerCondition, doc: Doc, cache?: (key: string) => unknown): boolean {
  if ('fault' in condition) throw new FaultError(condition.fault);
  const record = doc as Record<string, unknown>;
  const env: EvalEnv = {
    variables: new Map([
      ['ROOT', record],
      ['CURRENT', record],
    ]),
    ...(cache ? { cache } : {}),
    budget: { left: MAX_STEPS },
    truthy,
  };
  try {
    return truthy(evaluateExpr(condition.expr, record, env), condition.expr.type);
  } catch (e) {
    if (!(e instanceof FaultError) || e.fault.errCode === 'service.validation.trigger.if') throw e;
    throw refuse(e.fault.reason ?? e.fault.message);
  }
}
