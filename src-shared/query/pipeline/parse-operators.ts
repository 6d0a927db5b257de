/**
 * The expression operators a pipeline may use, each with its arity and operand types. Anything
 * a caller could write that the SQL compiler and the evaluator would not agree on is refused here
 * (date arithmetic, `$mod` of fractions, comparisons across types).
 */
import { childPath, indexPath, queryFault, unsupportedFault } from '../faults.js';
import { isJsonObject, type JsonValue } from '../json.js';
import type { DateFormatPart, Expr, ExprOperator, ValueType } from './ast.js';
import { MAX_EXPRESSION_KEYS } from '../limits.js';
import { comparable, isJsonType, isNumeric, unionType } from './shape.js';

/** Parses one operand (parse-expression.ts passes itself, which keeps the two files acyclic). */
export type ParseOperand = (value: JsonValue, path: string, depth: number) => Expr;

const ARITHMETIC = new Set(['$add', '$subtract', '$multiply', '$divide', '$mod']);
const UNARY_MATH = new Set(['$abs', '$ceil', '$floor', '$trunc', '$sqrt']);
const DATE_PARTS = new Set([
  '$year',
  '$month',
  '$dayOfMonth',
  '$dayOfWeek',
  '$dayOfYear',
  '$hour',
  '$minute',
  '$second',
  '$millisecond',
  '$week',
]);
const COMPARISONS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$cmp']);
const FORMAT_DIRECTIVES = new Set(['Y', 'm', 'd', 'H', 'M', 'S', 'L', 'j', 'w', 'U']);

/** Parses `{op: operand}`; undefined when `op` is no operator of the language. */
export function parseOperator(
  op: string,
  operand: JsonValue,
  parse: ParseOperand,
  path: string,
  depth: number,
): Expr | undefined {
  const args = (values: JsonValue[]) => parseArgs(values, parse, path, depth);
  const list = () => argumentList(operand, op, path);
  if (ARITHMETIC.has(op)) return arithmetic(op as ExprOperator, args(list()), path);
  if (UNARY_MATH.has(op)) {
    const [x] = args(exactly(list(), 1, op, path));
    requireNumber(x!, op, indexPath(path, 0));
    return node(op, [x!], { type: op === '$abs' || op === '$sqrt' ? 'Number' : 'Integer' });
  }
  if (DATE_PARTS.has(op)) {
    const [date] = args(exactly(list(), 1, op, path));
    requireType(date!, 'Date', op, indexPath(path, 0));
    return node(op, [date!], { type: 'Integer' });
  }
  if (COMPARISONS.has(op)) {
    const [a, b] = args(exactly(list(), 2, op, path));
    if (!comparable(a!.type, b!.type)) {
      throw queryFault(`${op} compares values of one type; got ${describe(a!.type)} and ${describe(b!.type)}.`, path);
    }
    return node(op, [a!, b!], { type: op === '$cmp' ? 'Integer' : 'Boolean' });
  }
  switch (op) {
    case '$concat': {
      const parts = args(atLeast(list(), 1, op, path));
      // An ObjectId is its hex text (the original's $concat writes any value as text).
      parts.forEach((p, i) => p.type.type !== 'ObjectId' && requireType(p, 'String', op, indexPath(path, i)));
      return node(op, parts, { type: 'String' });
    }
    case '$toLower':
    case '$toUpper': {
      const [s] = args(exactly(list(), 1, op, path));
      requireType(s!, 'String', op, indexPath(path, 0));
      return node(op, [s!], { type: 'String' });
    }
    case '$substr':
      return substr(list(), parse, path, depth);
    case '$dateToString':
      return dateToString(operand, parse, path, depth);
    case '$cond':
      return cond(operand, parse, path, depth);
    case '$ifNull': {
      const [a, b] = args(exactly(list(), 2, op, path));
      const type = unionType(a!.type, b!.type);
      if (!type) throw queryFault(`$ifNull takes two values of one type.`, path);
      return node(op, [a!, b!], type);
    }
    case '$and':
    case '$or':
      return node(op, args(atLeast(list(), 1, op, path)), { type: 'Boolean' });
    case '$not':
      return node(op, args(exactly(list(), 1, op, path)), { type: 'Boolean' });
    case '$size': {
      const [array] = args(exactly(list(), 1, op, path));
      if (!array!.type.array && array!.type.type !== 'Any')
        throw queryFault('$size takes an array.', indexPath(path, 0));
      return node(op, [array!], { type: 'Integer' });
    }
    default:
      return undefined;
  }
}

/** The operator's arguments as a list: an array as given, a single value as a list of one. */
function argumentList(operand: JsonValue, op: string, path: string): JsonValue[] {
  if (Array.isArray(operand)) {
    if (operand.length > MAX_EXPRESSION_KEYS) {
      throw queryFault(`${op} takes at most ${MAX_EXPRESSION_KEYS} arguments.`, path);
    }
    return operand;
  }
  return [operand];
}

/** Parses each argument; faults name the argument (`$add[1]`). */
function parseArgs(values: JsonValue[], parse: ParseOperand, path: string, depth: number): Expr[] {
  return values.map((v, i) => parse(v, indexPath(path, i), depth + 1));
}

function node(op: string, args: Expr[], type: ValueType, options?: Extract<Expr, { kind: 'op' }>['options']): Expr {
  return { kind: 'op', op: op as ExprOperator, args, type, ...(options ? { options } : {}) };
}

function exactly(values: JsonValue[], n: number, op: string, path: string): JsonValue[] {
  if (values.length !== n) throw queryFault(`${op} takes ${n} argument${n === 1 ? '' : 's'}.`, path);
  return values;
}

function atLeast(values: JsonValue[], n: number, op: string, path: string): JsonValue[] {
  if (values.length < n) throw queryFault(`${op} takes at least ${n} argument${n === 1 ? '' : 's'}.`, path);
  return values;
}

function describe(type: ValueType): string {
  return `${type.type}${type.array ? '[]' : ''}`;
}

function requireNumber(e: Expr, op: string, path: string): void {
  if (e.type.type === 'Null' || e.type.type === 'Any') return;
  if (e.type.type === 'Date') throw unsupportedFault(`${op} on dates (date arithmetic) is not supported.`, path);
  if (!isNumeric(e.type)) throw queryFault(`${op} takes numbers; got ${describe(e.type)}.`, path);
}

function requireType(e: Expr, type: 'String' | 'Date', op: string, path: string): void {
  if (e.type.type === 'Null' || e.type.type === 'Any' || (e.type.type === type && !e.type.array)) return;
  throw queryFault(`${op} takes ${type === 'Date' ? 'a date' : 'text'}; got ${describe(e.type)}.`, path);
}

function arithmetic(op: ExprOperator, args: Expr[], path: string): Expr {
  const binary = op !== '$add' && op !== '$multiply';
  if (binary ? args.length !== 2 : args.length < 2) {
    throw queryFault(`${op} takes ${binary ? '2' : 'at least 2'} arguments.`, path);
  }
  args.forEach((a, i) => requireNumber(a, op, indexPath(path, i)));
  if (op === '$mod' && args.some((a) => a.type.type !== 'Integer' && a.type.type !== 'Null')) {
    throw queryFault('$mod takes whole numbers (Integer properties or integer literals).', path);
  }
  // Whole numbers stay whole (SQLite's integer arithmetic), except through $divide.
  const whole = op !== '$divide' && args.every((a) => a.type.type === 'Integer' || a.type.type === 'Null');
  return node(op, args, { type: whole ? 'Integer' : 'Number' });
}

/** `$substr: [text, start, length]`: start and length are integer literals (code points). */
function substr(values: JsonValue[], parse: ParseOperand, path: string, depth: number): Expr {
  exactly(values, 3, '$substr', path);
  const [text] = parseArgs(values.slice(0, 1), parse, path, depth);
  if (text!.type.type !== 'Date') requireType(text!, 'String', '$substr', indexPath(path, 0));
  const [start, length] = [values[1], values[2]];
  if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0) {
    throw unsupportedFault('$substr takes a non-negative integer literal as its start.', indexPath(path, 1));
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length)) {
    throw unsupportedFault('$substr takes an integer literal as its length.', indexPath(path, 2));
  }
  return node('$substr', [text!], { type: 'String' }, { start, length });
}

/** `[format, date]` (the original's form) or `{format, date}`; only UTC. */
function dateToString(operand: JsonValue, parse: ParseOperand, path: string, depth: number): Expr {
  let format: JsonValue | undefined;
  let date: JsonValue | undefined;
  let timezone: JsonValue | undefined;
  if (Array.isArray(operand)) {
    if (operand.length < 2 || operand.length > 3) throw queryFault('$dateToString takes [format, date].', path);
    [format, date, timezone] = operand;
  } else if (isJsonObject(operand)) {
    ({ format, date, timezone } = operand);
    const extra = Object.keys(operand).find((k) => !['format', 'date', 'timezone'].includes(k));
    if (extra) throw queryFault(`$dateToString does not take ${extra}.`, childPath(path, extra));
  } else throw queryFault('$dateToString takes [format, date].', path);
  if (timezone !== undefined && timezone !== 'UTC' && timezone !== 'Z') {
    throw unsupportedFault('$dateToString formats in UTC only.', path);
  }
  if (typeof format !== 'string' || format.length === 0 || format.length > 100) {
    throw queryFault('$dateToString takes a format string of 1 to 100 characters.', path);
  }
  const value = parse(date ?? null, childPath(path, 'date'), depth + 1);
  requireType(value, 'Date', '$dateToString', childPath(path, 'date'));
  return node('$dateToString', [value], { type: 'String' }, { format: formatParts(format, path) });
}

function formatParts(format: string, path: string): DateFormatPart[] {
  const parts: DateFormatPart[] = [];
  let text = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      text += c;
      continue;
    }
    const d = format[++i];
    if (d === '%') text += '%';
    else if (d !== undefined && FORMAT_DIRECTIVES.has(d)) {
      if (text) parts.push({ text });
      text = '';
      parts.push({ directive: d as 'Y' });
    } else {
      throw unsupportedFault(
        `$dateToString does not support %${d ?? ''}; use %Y %m %d %H %M %S %L %j %w %U or %%.`,
        path,
      );
    }
  }
  if (text) parts.push({ text });
  return parts;
}

/** `[if, then, else]` or `{if, then, else}`. */
function cond(operand: JsonValue, parse: ParseOperand, path: string, depth: number): Expr {
  let parts: JsonValue[];
  if (Array.isArray(operand)) parts = exactly(operand, 3, '$cond', path);
  else if (isJsonObject(operand) && Object.keys(operand).length === 3 && 'if' in operand && 'then' in operand) {
    if (!('else' in operand)) throw queryFault('$cond takes if, then and else.', path);
    parts = [operand.if as JsonValue, operand.then as JsonValue, operand.else as JsonValue];
  } else throw queryFault('$cond takes [if, then, else] or {if, then, else}.', path);
  const [test, then, otherwise] = parseArgs(parts, parse, path, depth);
  const type = unionType(then!.type, otherwise!.type);
  if (!type || (isJsonType(type) && type.type === 'Document')) {
    throw queryFault('$cond takes then and else values of one type.', path);
  }
  return node('$cond', [test!, then!, otherwise!], type);
}
