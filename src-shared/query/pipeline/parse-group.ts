/**
 * `$group` (and the `group` list argument, the same expression): `_id` is null, a property path,
 * an expression, or a document of them; every other member is one accumulator
 * (`$sum $avg $min $max $count $first $last $push $addToSet`).
 */
import type { PropertyDef } from '../../schema/types.js';
import { childPath, queryFault, unsupportedFault } from '../faults.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { OUTPUT_NAME_PATTERN } from '../limits.js';
import type { Accumulator, AccumulatorOperator, Expr, GroupKey, ValueType } from './ast.js';
import { assertKeyCount, parseExpr, type ExprContext } from './parse-expression.js';
import { isJsonType, isNumeric, propertyOf } from './shape.js';
import { assertOutputName, fieldExpr } from './stage-scope.js';

const ACCUMULATORS = new Set(['$sum', '$avg', '$min', '$max', '$count', '$first', '$last', '$push', '$addToSet']);
const UNSUPPORTED_ACCUMULATORS = new Set(['$stdDevPop', '$stdDevSamp', '$pushAll', '$mergeObjects', '$accumulator']);

export interface ParsedGroup {
  key: GroupKey;
  accumulators: Accumulator[];
  /** The output's properties: `_id` first, then each accumulator. */
  output: PropertyDef[];
}

/** A bare name (`group=name.last`) groups by that property. */
export function normaliseGroup(value: JsonValue, path: string): JsonObject {
  if (typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(value)) return { _id: value };
  if (!isJsonObject(value)) throw queryFault('$group takes an object with an _id.', path);
  return value;
}

export function parseGroup(value: JsonValue, ctx: ExprContext, path: string): ParsedGroup {
  const group = normaliseGroup(value, path);
  assertKeyCount(group, path);
  if (!('_id' in group)) throw queryFault('$group expression must contain an _id field.', path);
  const key = parseKey(group._id as JsonValue, ctx, childPath(path, '_id'));
  const accumulators = Object.entries(group)
    .filter(([name]) => name !== '_id')
    .map(([name, spec]) => parseAccumulator(name, spec, ctx, childPath(path, name)));
  if (key.kind === 'null' && accumulators.length === 0) {
    throw queryFault('Group component requires at least one expression when grouping by null.', path);
  }
  const output = [
    ...(key.kind === 'null' ? [] : [propertyOf('_id', keyType(key))]),
    ...accumulators.map((a) => propertyOf(a.name, a.type)),
  ];
  return { key, accumulators, output };
}

function keyType(key: GroupKey): ValueType {
  if (key.kind === 'value') return key.expr.type;
  if (key.kind === 'document') {
    return { type: 'Document', properties: key.fields.map((f) => propertyOf(f.name, f.expr.type)) };
  }
  return { type: 'Null' };
}

function parseKey(value: JsonValue, ctx: ExprContext, path: string): GroupKey {
  if (value === null) return { kind: 'null' };
  if (isJsonObject(value) && !Object.keys(value).some((k) => k.startsWith('$'))) {
    assertKeyCount(value, path);
    const entries = Object.entries(value);
    if (entries.length === 0) throw queryFault('A group _id document names at least one value.', path);
    const fields = entries.map(([name, v]) => {
      assertOutputName(name, childPath(path, name), OUTPUT_NAME_PATTERN);
      return { name, expr: scalarKey(parseExpr(v, ctx, childPath(path, name), 1), childPath(path, name)) };
    });
    return { kind: 'document', fields };
  }
  return { kind: 'value', expr: scalarKey(parseExpr(value, ctx, path, 1), path) };
}

function scalarKey(expr: Expr, path: string): Expr {
  if (isJsonType(expr.type)) {
    throw unsupportedFault('Groups are keyed by single values, not by documents or arrays.', path);
  }
  return expr;
}

function parseAccumulator(name: string, spec: JsonValue, ctx: ExprContext, path: string): Accumulator {
  assertOutputName(name, path, OUTPUT_NAME_PATTERN);
  if (!isJsonObject(spec) || Object.keys(spec).length !== 1) {
    throw queryFault('Group accumulator expression requires a single supported accumulator property.', path);
  }
  const op = Object.keys(spec)[0]!;
  const operand = spec[op] as JsonValue;
  const opPath = childPath(path, op);
  if (UNSUPPORTED_ACCUMULATORS.has(op)) throw unsupportedFault(`The accumulator ${op} is not supported.`, opPath);
  if (!ACCUMULATORS.has(op)) {
    throw queryFault(`Unknown accumulator ${op}; use ${[...ACCUMULATORS].join(' ')}.`, opPath);
  }
  const acc = op as AccumulatorOperator;
  if (acc === '$count') return parseCount(name, operand, ctx, opPath);
  if (acc === '$sum' && typeof operand === 'number') {
    if (!Number.isFinite(operand)) throw queryFault('Numbers must be finite.', opPath);
    return { name, op: acc, constant: operand, type: { type: 'Number' } };
  }
  const expr = parseExpr(operand, ctx, opPath, 1);
  return { name, op: acc, expr, type: accumulatedType(acc, expr, opPath) };
}

function accumulatedType(op: AccumulatorOperator, expr: Expr, path: string): ValueType {
  const type = expr.type;
  switch (op) {
    case '$sum':
    case '$avg':
      if (type.type !== 'Null' && !isNumeric(type)) throw queryFault(`${op} takes numbers.`, path);
      return { type: 'Number' };
    case '$min':
    case '$max':
    case '$addToSet':
      if (isJsonType(type)) throw unsupportedFault(`${op} takes single values, not documents or arrays.`, path);
      return op === '$addToSet' ? { type: type.type, array: true } : type;
    case '$push':
      if (type.array) throw unsupportedFault('$push of arrays is not supported; $unwind them first.', path);
      return { ...type, array: true };
    default:
      return type;
  }
}

/** The original's `$count`: a property path; `_id` (or `{}`) counts documents, an array its elements. */
function parseCount(name: string, operand: JsonValue, ctx: ExprContext, path: string): Accumulator {
  if ((isJsonObject(operand) && Object.keys(operand).length === 0) || operand === '_id') {
    return { name, op: '$count', type: { type: 'Integer' } };
  }
  if (typeof operand !== 'string') throw queryFault('$count takes a property path.', path);
  const expr = fieldExpr(ctx.scope, operand, path);
  if (expr.kind === 'field' && expr.whole && !expr.type.array && expr.type.type === 'Document') {
    return { name, op: '$count', expr, type: { type: 'Integer' } };
  }
  return { name, op: '$count', expr, countsElements: expr.type.array === true, type: { type: 'Integer' } };
}
