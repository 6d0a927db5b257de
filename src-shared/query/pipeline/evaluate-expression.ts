/**
 * In-memory evaluation of pipeline expressions over one document, with the semantics the SQL
 * compiler gives them (docs/query-semantics.md, "Aggregation"): null and missing are one thing,
 * Booleans compare as 0/1, text by code point, any arithmetic on null is null, and a result that is
 * not a finite number (division by zero, the square root of a negative) is null.
 */
import { compareSqlValues, toSqlValue } from '../compare.js';
import { readPath } from '../evaluate.js';
import type { DateFormatPart, Expr, ValueType } from './ast.js';
import { isJsonType } from './shape.js';
import { EVALUATOR_ONLY } from './parse-evaluator-only.js';
import { evaluateEvaluatorOnly, readVariable, spend, type EvalEnv } from './evaluate-evaluator-only.js';

export type Value = unknown;

/**
 * `env`: the variables and the org cache of a trigger's if (evaluate-evaluator-only.ts); a
 * pipeline's expressions have neither.
 */
export function evaluateExpr(expr: Expr, doc: Record<string, unknown>, env?: EvalEnv): Value {
  if (env) spend(env);
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'field': {
      const access = expr.field.access;
      const path = expr.whole || access.kind !== 'value' ? expr.field.path : access.storagePath;
      return readPath(doc, path) ?? null;
    }
    case 'variable':
      return readVariable(expr, env);
    case 'op':
      if (EVALUATOR_ONLY.has(expr.op)) return evaluateEvaluatorOnly(expr, doc, env, evaluateExpr);
      return evaluateOp(
        expr,
        expr.args.map((a) => evaluateExpr(a, doc, env)),
      );
  }
}

/** How a value tests in `$cond`, `$and`, `$or`, `$not`: numbers and Booleans by value, others by presence. */
export function truthy(value: Value, type: ValueType): boolean {
  if (value === null || value === undefined) return false;
  // Known only now (a trigger's if: `$cache`, a variable's path): judged by the value itself.
  if (type.type === 'Any')
    return typeof value === 'boolean' || typeof value === 'number' ? value !== 0 && value !== false : true;
  if (!isJsonType(type) && (type.type === 'Boolean' || type.type === 'Number' || type.type === 'Integer')) {
    return toSqlValue(value) !== 0;
  }
  return true;
}

function num(value: Value): number | null {
  return typeof value === 'number' ? value : null;
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

function evaluateOp(expr: Extract<Expr, { kind: 'op' }>, args: Value[]): Value {
  const [a, b, c] = args;
  switch (expr.op) {
    case '$add':
    case '$multiply': {
      const ns = args.map(num);
      if (ns.some((n) => n === null)) return null;
      return finite((ns as number[]).reduce((x, y) => (expr.op === '$add' ? x + y : x * y)));
    }
    case '$subtract':
    case '$divide':
    case '$mod': {
      const [x, y] = [num(a), num(b)];
      if (x === null || y === null) return null;
      if (expr.op === '$subtract') return finite(x - y);
      if (y === 0) return null;
      return finite(expr.op === '$divide' ? x / y : x % y);
    }
    case '$abs':
    case '$ceil':
    case '$floor':
    case '$trunc':
    case '$sqrt': {
      const x = num(a);
      if (x === null) return null;
      const f = { $abs: Math.abs, $ceil: Math.ceil, $floor: Math.floor, $trunc: Math.trunc, $sqrt: Math.sqrt }[expr.op];
      return finite(f(x));
    }
    case '$concat':
      return args.some((s) => typeof s !== 'string') ? null : (args as string[]).join('');
    case '$toLower':
    case '$toUpper':
      if (typeof a !== 'string') return null;
      // ASCII only, as SQLite's lower()/upper() and MongoDB's $toLower are defined.
      return expr.op === '$toLower'
        ? a.replace(/[A-Z]/g, (ch) => ch.toLowerCase())
        : a.replace(/[a-z]/g, (ch) => ch.toUpperCase());
    case '$substr': {
      if (typeof a !== 'string') return null;
      const points = Array.from(a);
      const start = expr.options?.start ?? 0;
      const length = expr.options?.length ?? -1;
      return points.slice(start, length < 0 ? undefined : start + length).join('');
    }
    case '$size':
      return Array.isArray(a) ? a.length : null;
    case '$cond':
      return truthy(a, expr.args[0]!.type) ? b : c;
    case '$ifNull':
      return a === null || a === undefined ? b : a;
    case '$and':
      return args.every((v, i) => truthy(v, expr.args[i]!.type));
    case '$or':
      return args.some((v, i) => truthy(v, expr.args[i]!.type));
    case '$not':
      return !truthy(a, expr.args[0]!.type);
    case '$eq':
    case '$ne':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
    case '$cmp': {
      const cmp = compareSqlValues(toSqlValue(a), toSqlValue(b));
      return {
        $eq: cmp === 0,
        $ne: cmp !== 0,
        $gt: cmp > 0,
        $gte: cmp >= 0,
        $lt: cmp < 0,
        $lte: cmp <= 0,
        $cmp: Math.sign(cmp),
      }[expr.op];
    }
    case '$dateToString':
      return typeof a === 'string' ? formatDate(a, expr.options?.format ?? []) : null;
    default:
      return typeof a === 'string' ? datePart(expr.op, a) : null;
  }
}

/** The parts of a stored date (`YYYY-MM-DDTHH:mm:ss.sssZ`), UTC. */
function datePart(op: string, iso: string): number {
  const part = (from: number, length: number) => Number(iso.slice(from, from + length));
  switch (op) {
    case '$year':
      return part(0, 4);
    case '$month':
      return part(5, 2);
    case '$dayOfMonth':
      return part(8, 2);
    case '$hour':
      return part(11, 2);
    case '$minute':
      return part(14, 2);
    case '$second':
      return part(17, 2);
    case '$millisecond':
      return part(20, 3);
    case '$dayOfWeek':
      return weekday(iso) + 1;
    case '$dayOfYear':
      return dayOfYear(iso);
    default: // $week: weeks start on Sunday; days before the year's first Sunday are week 0 (C's %U).
      return Math.floor((dayOfYear(iso) - 1 + 7 - weekday(iso)) / 7);
  }
}

function utcDay(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // keeps years 0–99 literal, unlike Date.UTC
  return d.getTime();
}

/** 0 = Sunday. */
function weekday(iso: string): number {
  return new Date(utcDay(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)))).getUTCDay();
}

function dayOfYear(iso: string): number {
  const year = Number(iso.slice(0, 4));
  const day = utcDay(year, Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  return Math.round((day - utcDay(year, 0, 1)) / 86_400_000) + 1;
}

function formatDate(iso: string, parts: DateFormatPart[]): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      switch (p.directive) {
        case 'Y':
          return iso.slice(0, 4);
        case 'm':
          return iso.slice(5, 7);
        case 'd':
          return iso.slice(8, 10);
        case 'H':
          return iso.slice(11, 13);
        case 'M':
          return iso.slice(14, 16);
        case 'S':
          return iso.slice(17, 19);
        case 'L':
          return iso.slice(20, 23);
        case 'j':
          return pad(dayOfYear(iso), 3);
        case 'w':
          return String(weekday(iso));
        default:
          return pad(datePart('$week', iso), 2);
      }
    })
    .join('');
}
