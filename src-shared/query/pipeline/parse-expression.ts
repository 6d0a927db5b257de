/**
 * Pipeline expressions as the original writes them: a bare string is a property path (`name.last`,
 * no `$`), numbers, booleans and null are literals, `{$literal: v}` (or `$string`, `$number`,
 * `$integer`, `$boolean`, `$date`, `$objectId`) wraps any other literal, and `{$op: args}` applies
 * an operator. Every operand is type-checked here, so the SQL compiler and the evaluator agree.
 *
 * TRUST BOUNDARY: the value is untrusted JSON from the caller; depth and key counts are bounded.
 */
import { childPath, queryFault, unsupportedFault } from '../faults.js';
import type { JsonValue } from '../json.js';
import { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_KEYS } from '../limits.js';
import { normaliseIsoDate, normaliseObjectId } from '../values.js';
import type { Expr } from './ast.js';
import { parseOperator } from './parse-operators.js';
import { parseEvaluatorOnly, type Variables } from './parse-evaluator-only.js';
import { fieldExpr, type StageScope } from './stage-scope.js';

export interface ExprContext {
  scope: StageScope;
  /** Where evaluator-only operators and variables are allowed (a trigger's if): those in scope. */
  variables?: Variables;
}

/** Operators the original's parser knows that this service refuses by name (never ignores). */
const UNSUPPORTED_OPERATORS = new Set([
  '$setEquals',
  '$setIntersection',
  '$setUnion',
  '$setDifference',
  '$setIsSubset',
  '$anyElementTrue',
  '$allElementsTrue',
  '$slice',
  '$isArray',
  '$concatArrays',
  '$arrayElemAt',
  '$strcasecmp',
  '$stdDevPop',
  '$stdDevSamp',
  '$ln',
  '$exp',
  '$pow',
  '$log',
  '$array',
  '$object',
  '$expand',
  '$filter',
  '$map',
]);

export function assertDepth(depth: number, path: string): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw queryFault(`Expressions are nested deeper than ${MAX_EXPRESSION_DEPTH} levels.`, path);
  }
}

export function assertKeyCount(object: object, path: string): void {
  if (Object.keys(object).length > MAX_EXPRESSION_KEYS) {
    throw queryFault(`An expression object has at most ${MAX_EXPRESSION_KEYS} keys.`, path);
  }
}

/**
 * Any expression. `whole`: a Reference path stands for the whole reference (projections), not
 * its `_id`.
 */
export function parseExpr(value: JsonValue, ctx: ExprContext, path: string, depth: number, whole = false): Expr {
  assertDepth(depth, path);
  if (typeof value === 'string') {
    if (value.startsWith('$')) {
      throw queryFault(
        `"${value.slice(0, 60)}": property paths are written without $ (${value.slice(1, 60) || 'name'}); a text starting with $ is written {"$literal": "${value.slice(0, 60)}"}.`,
        path,
      );
    }
    if (value === '') throw queryFault('An empty string is not a property path; write {"$literal": ""}.', path);
    return fieldExpr(ctx.scope, value, path, whole);
  }
  if (typeof value === 'number') return numberLiteral(value, path);
  if (typeof value === 'boolean') return { kind: 'literal', value, type: { type: 'Boolean' } };
  if (value === null) return { kind: 'literal', value: null, type: { type: 'Null' } };
  if (Array.isArray(value)) {
    throw unsupportedFault('Arrays are not values here; operators take their arguments as arrays.', path);
  }
  const keys = Object.keys(value);
  assertKeyCount(value, path);
  if (keys.length !== 1 || !keys[0]!.startsWith('$')) {
    if (keys.some((k) => k.startsWith('$'))) {
      throw queryFault('Operator expressions cannot mix field names with operators.', path);
    }
    throw unsupportedFault('A document of values is not an expression here; name each value in the stage.', path);
  }
  const op = keys[0]!;
  const operand = value[op] as JsonValue;
  const opPath = childPath(path, op);
  const literal = parseLiteral(op, operand, opPath);
  if (literal) return literal;
  const evaluatorOnly = parseEvaluatorOnly(
    op,
    operand,
    ctx.variables,
    (v, variables, p, d) => parseExpr(v, { ...ctx, variables }, p, d),
    opPath,
    depth,
  );
  if (evaluatorOnly) return evaluatorOnly;
  if (UNSUPPORTED_OPERATORS.has(op)) {
    throw unsupportedFault(`The expression operator ${op} is not supported.`, opPath);
  }
  const parsed = parseOperator(op, operand, (v, p, d) => parseExpr(v, ctx, p, d), opPath, depth);
  if (!parsed) throw queryFault(`Unknown expression operator ${op}.`, opPath);
  return parsed;
}

function numberLiteral(value: number, path: string): Expr {
  if (!Number.isFinite(value)) throw queryFault('Numbers must be finite.', path);
  return { kind: 'literal', value, type: { type: Number.isSafeInteger(value) ? 'Integer' : 'Number' } };
}

/** `$literal` and the original's typed literals; undefined when `op` is not one. */
function parseLiteral(op: string, operand: JsonValue, path: string): Expr | undefined {
  switch (op) {
    case '$literal':
      if (typeof operand === 'string') return { kind: 'literal', value: operand, type: { type: 'String' } };
      if (typeof operand === 'number') return numberLiteral(operand, path);
      if (typeof operand === 'boolean') return { kind: 'literal', value: operand, type: { type: 'Boolean' } };
      if (operand === null) return { kind: 'literal', value: null, type: { type: 'Null' } };
      throw unsupportedFault('$literal takes a string, a number, a boolean or null.', path);
    case '$string':
      if (typeof operand !== 'string') throw queryFault('$string expects a string value.', path);
      return { kind: 'literal', value: operand, type: { type: 'String' } };
    case '$number':
      if (typeof operand !== 'number' && !(typeof operand === 'string' && /^-?\d+(\.\d+)?$/.test(operand))) {
        throw queryFault('$number expects a number value.', path);
      }
      return numberLiteral(Number(operand), path);
    case '$integer':
      if (!Number.isSafeInteger(typeof operand === 'string' ? Number(operand) : operand)) {
        throw queryFault('$integer expects an integer value.', path);
      }
      return { kind: 'literal', value: Number(operand), type: { type: 'Integer' } };
    case '$boolean':
      if (typeof operand !== 'boolean') throw queryFault('$boolean expects a boolean value.', path);
      return { kind: 'literal', value: operand, type: { type: 'Boolean' } };
    case '$date': {
      const iso = typeof operand === 'string' ? normaliseIsoDate(operand) : undefined;
      if (iso === undefined) throw queryFault('$date expects an ISO 8601 date.', path);
      return { kind: 'literal', value: iso, type: { type: 'Date' } };
    }
    case '$objectId':
      return { kind: 'literal', value: normaliseObjectId(operand, path), type: { type: 'ObjectId' } };
    default:
      return undefined;
  }
}
