/**
 * A decorated trigger's `if` (issue 41): `@trigger('create.before', {object, if: {...}})` runs the
 * method only when the expression, evaluated against the record, is true. In the original it is
 * an aggregation expression of its expression engine, written as MongoDB writes one (`'$c_title'`
 * is a property of the record, other strings are text, `{$op: args}` an operator; its tests:
 * `$eq`, `$cond`, `$not`, `$or`, `$find`, `$reduce`, `$toBool`, `$pathTo`, `$dbNext`).
 *
 * Here it is read into the pipeline language's expressions (src-shared/query/pipeline: the same
 * parser, type checks and in-memory evaluator as `GET /<objects>?pipeline=`), against the schema
 * of the trigger's object, so it is checked when the library is saved: an operator the language
 * does not have (`$find`, `$reduce`, `$dbNext`…), a variable (`$$ROOT`, `$$this`), an unknown
 * property, or an `if` that is not a literal expression refuses the save with a fault naming it
 * (trigger-rules.ts) — never a trigger that silently runs always.
 */
import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { allProperties } from '../../../src-shared/schema/types.js';
import type { JsonValue } from '../../../src-shared/query/json.js';
import type { Expr } from '../../../src-shared/query/pipeline/ast.js';
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

/** A parsed `if`, or the fault it was refused with (a schema changed since the library was saved). */
export type TriggerCondition = { expr: Expr } | { fault: FaultBody };

const refuse = (reason: string) => fault('validation', 'trigger.if', { path: 'if', reason });

/**
 * The original's form into the pipeline language's: `'$a.b'` is the path `a.b`, other strings are
 * `{$literal}`, `$dateToString`'s format stays text. Variables (`$$…`) and non-literal options
 * (kept at save as `{$expression}`) are refused by name.
 */
function translate(value: unknown, count: { n: number }, rawText = false): JsonValue {
  if (++count.n > MAX_TRANSLATED_NODES) throw refuse(`An if expression has at most ${MAX_TRANSLATED_NODES} parts.`);
  if (typeof value === 'string') {
    if (rawText) return value;
    if (value.startsWith('$$')) {
      throw refuse(
        `${value.slice(0, 40)}: variables are not supported in a trigger's if; name record properties ($c_x).`,
      );
    }
    if (value.startsWith('$')) return value.slice(1);
    return { $literal: value };
  }
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map((v, i) => translate(v, count, rawText && i === 0));
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === '$expression') {
    throw refuse(
      `${String(entries[0]![1]).slice(0, 80)} is not a literal: the service reads a trigger's if when the library is saved; write the expression itself.`,
    );
  }
  return Object.fromEntries(
    entries.map(([k, v]) => {
      if (k === '$literal') return [k, v as JsonValue];
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
  try {
    return parseExpr(translate(value, { n: 0 }), { scope }, 'if', 0);
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

/** Whether the trigger runs for `doc` (`{_id, …stored properties}`); a refused `if` throws its fault. */
export function conditionHolds(condition: TriggerCondition, doc: Doc): boolean {
  if ('fault' in condition) throw new FaultError(condition.fault);
  return truthy(evaluateExpr(condition.expr, doc as Record<string, unknown>), condition.expr.type);
}
