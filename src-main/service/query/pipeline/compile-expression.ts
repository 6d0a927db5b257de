/**
 * Pipeline expressions → SQL over one stage's rows. Semantics: docs/query-semantics.md
 * "Aggregation"; the evaluator (src-shared/query/pipeline/evaluate-expression.ts) is the reference
 * and the differential tests hold this file to it. Every value a caller wrote is a bound parameter;
 * only numbers this file chooses (substring offsets) and validated property paths are inlined.
 */
import type { DateFormatPart, Expr, ValueType } from '../../../../src-shared/query/pipeline/ast.js';
import { isJsonType } from '../../../../src-shared/query/pipeline/shape.js';
import { joinFragments, sql, wrap, type SqlFragment } from '../sql-fragment.js';
import { unsupportedFault } from '../../../../src-shared/query/faults.js';
import { EVALUATOR_ONLY } from '../../../../src-shared/query/pipeline/parse-evaluator-only.js';

/** How a stage reads its input: a scalar at a storage path, a JSON value at a path. */
export interface Reader {
  read(storagePath: string): string;
  readJson(path: string): string;
}

/** `text` with each `$n` replaced by the n-th fragment (params in order, repeated as used). */
export function template(text: string, ...parts: SqlFragment[]): SqlFragment {
  const params: unknown[] = [];
  const out = text.replace(/\$(\d)/g, (_, i: string) => {
    const part = parts[Number(i)]!;
    params.push(...part.params);
    return `(${part.sql})`;
  });
  return { sql: out, params };
}

export function compileExpr(expr: Expr, reader: Reader): SqlFragment {
  switch (expr.kind) {
    case 'literal':
      if (expr.value === null) return sql('NULL');
      return sql('?', typeof expr.value === 'boolean' ? (expr.value ? 1 : 0) : expr.value);
    case 'field': {
      const access = expr.field.access;
      if (expr.whole || access.kind !== 'value') return sql(reader.readJson(expr.field.path));
      return sql(reader.read(access.storagePath));
    }
    case 'op':
      if (EVALUATOR_ONLY.has(expr.op)) throw evaluatorOnly(expr.op);
      return compileOp(
        expr,
        expr.args.map((a) => compileExpr(a, reader)),
      );
    case 'variable':
      throw evaluatorOnly(`$$${expr.name}`);
  }
}

/**
 * Never reached: the parser refuses these outside a trigger's if (parse-evaluator-only.ts); kept
 * so a future caller that lets one through gets a fault, not SQL that means something else.
 */
function evaluatorOnly(name: string) {
  return unsupportedFault(`${name} is evaluated in memory only (a trigger's if), not in a query.`, 'pipeline');
}

/** The value as a member of a JSON document: Booleans as true/false, documents and arrays as JSON. */
export function render(value: SqlFragment, type: ValueType): SqlFragment {
  if (isJsonType(type)) return template('json($0)', value);
  if (type.type === 'Boolean') return template(`json(CASE $0 WHEN 0 THEN 'false' WHEN 1 THEN 'true' END)`, value);
  return value;
}

/** Truthiness (`$cond`, `$and`, `$or`, `$not`): numbers and Booleans by value, the rest by presence. */
export function truthy(value: SqlFragment, type: ValueType): SqlFragment {
  if (!isJsonType(type) && (type.type === 'Boolean' || type.type === 'Number' || type.type === 'Integer')) {
    return template('coalesce($0 <> 0, 0)', value);
  }
  return template('$0 IS NOT NULL', value);
}

/** -1, 0, 1 with null lowest (SQLite's order: null < numbers < text), never NULL. */
function cmp(a: SqlFragment, b: SqlFragment): SqlFragment {
  return template(
    'CASE WHEN $0 IS $1 THEN 0 WHEN $0 IS NULL THEN -1 WHEN $1 IS NULL THEN 1 WHEN $0 < $1 THEN -1 ELSE 1 END',
    a,
    b,
  );
}

/** A number, or NULL when it is not finite (SQLite keeps ±Inf; the evaluator has no such value). */
function finite(value: SqlFragment): SqlFragment {
  return template('CASE WHEN abs($0) <= 1.7976931348623157e308 THEN $0 END', value);
}

const DATE_SLICES: Record<string, [number, number]> = {
  $year: [1, 4],
  $month: [6, 2],
  $dayOfMonth: [9, 2],
  $hour: [12, 2],
  $minute: [15, 2],
  $second: [18, 2],
  $millisecond: [21, 3],
};

function compileOp(expr: Extract<Expr, { kind: 'op' }>, args: SqlFragment[]): SqlFragment {
  const [a, b, c] = args;
  switch (expr.op) {
    case '$add':
      return finite(joinAll(args, ' + '));
    case '$multiply':
      return finite(joinAll(args, ' * '));
    case '$subtract':
      return finite(template('$0 - $1', a!, b!));
    case '$divide':
      return finite(template('CAST($0 AS REAL) / $1', a!, b!));
    case '$mod':
      return template('$0 % $1', a!, b!);
    case '$abs':
      return template('abs($0)', a!);
    case '$ceil':
      return template('ceil($0)', a!);
    case '$floor':
      return template('floor($0)', a!);
    case '$trunc':
      return template('trunc($0)', a!);
    case '$sqrt':
      return template('sqrt($0)', a!);
    case '$concat':
      return joinAll(args, ' || ');
    case '$toLower':
      return template('lower($0)', a!);
    case '$toUpper':
      return template('upper($0)', a!);
    case '$substr': {
      const start = integer(expr.options?.start ?? 0) + 1;
      const length = expr.options?.length ?? -1;
      return length < 0
        ? template(`substr($0, ${start})`, a!)
        : template(`substr($0, ${start}, ${integer(length)})`, a!);
    }
    case '$size':
      return template('json_array_length($0)', a!);
    case '$cond':
      return template('CASE WHEN $0 THEN $1 ELSE $2 END', truthy(a!, expr.args[0]!.type), b!, c!);
    case '$ifNull':
      return template('coalesce($0, $1)', a!, b!);
    case '$and':
    case '$or':
      return joinAll(
        args.map((x, i) => truthy(x, expr.args[i]!.type)),
        expr.op === '$and' ? ' AND ' : ' OR ',
      );
    case '$not':
      return template('NOT $0', truthy(a!, expr.args[0]!.type));
    case '$cmp':
      return cmp(a!, b!);
    case '$eq':
    case '$ne':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const symbol = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[expr.op];
      return template(`$0 ${symbol} 0`, cmp(a!, b!));
    }
    case '$dayOfWeek':
      return template(`CAST(strftime('%w', $0) AS INTEGER) + 1`, a!);
    case '$dayOfYear':
      return template(`CAST(strftime('%j', $0) AS INTEGER)`, a!);
    case '$week':
      return template(`CAST(strftime('%U', $0) AS INTEGER)`, a!);
    case '$dateToString':
      return dateToString(a!, expr.options?.format ?? []);
    default: {
      const [from, length] = DATE_SLICES[expr.op]!;
      return template(`CAST(substr($0, ${from}, ${length}) AS INTEGER)`, a!);
    }
  }
}

function joinAll(args: SqlFragment[], separator: string): SqlFragment {
  const joined = joinFragments(
    args.map((x) => wrap('(', x, ')')),
    separator,
  );
  return wrap('(', joined, ')');
}

function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`Invalid integer ${String(n)}.`);
  return n;
}

/** `%Y-%m` and the like as a concatenation of slices of the stored ISO text. */
function dateToString(date: SqlFragment, parts: DateFormatPart[]): SqlFragment {
  if (parts.length === 0) return sql(`''`);
  const pieces = parts.map((p): SqlFragment => {
    if ('text' in p) return sql('?', p.text);
    const slice: Record<string, string> = {
      Y: 'substr($0, 1, 4)',
      m: 'substr($0, 6, 2)',
      d: 'substr($0, 9, 2)',
      H: 'substr($0, 12, 2)',
      M: 'substr($0, 15, 2)',
      S: 'substr($0, 18, 2)',
      L: 'substr($0, 21, 3)',
      j: `strftime('%j', $0)`,
      w: `strftime('%w', $0)`,
      U: `strftime('%U', $0)`,
    };
    return template(slice[p.directive]!, date);
  });
  // NULL when the date is missing, whatever literal text the format holds.
  return template('CASE WHEN $0 IS NULL THEN NULL ELSE $1 END', date, joinAll(pieces, ' || '));
}
