/**
 * Compiles a validated `Condition` to SQL over the storage layout (`_id` column + `doc` JSON).
 * Semantics: docs/query-semantics.md; the in-memory evaluator is the reference and the
 * differential tests hold this file to it. Every operand is a bound parameter; only property paths
 * (validated against PATH_SEGMENT_PATTERN, re-checked in expressions.ts) are inlined.
 *
 * Every fragment produced here is two-valued (never NULL) wherever it gets negated, so `NOT`
 * never meets SQL's unknown.
 */
import type { Condition, FieldOperation, FieldRef, Scalar, ValueOperation } from '../../../src-shared/query/ast.js';
import { jsonExtract, jsonPathLiteral, NO_KEY_COLUMNS, propertyExpression, type KeyColumns } from './expressions.js';
import { prefixRangesAreExact, regexPrefixRanges } from './regex-prefix.js';
import { and, not, or, sql, wrap, type SqlFragment } from './sql-fragment.js';

interface Scope {
  /** SQL expression of the JSON being matched: the record's `doc`, or a json_each row's value. */
  root: string;
  /** At the record level `_id` is its own column and indexes apply. */
  recordLevel: boolean;
  /** The table's key columns (expressions.ts); they stand for paths at the record level only. */
  columns: KeyColumns;
  nextAlias: () => string;
}

export function compileWhere(condition: Condition, columns: KeyColumns = NO_KEY_COLUMNS): SqlFragment {
  let aliasCount = 0;
  return compileCondition(condition, { root: 'doc', recordLevel: true, columns, nextAlias: () => `j${++aliasCount}` });
}

function compileCondition(condition: Condition, scope: Scope): SqlFragment {
  switch (condition.kind) {
    case 'and':
      return and(condition.conditions.map((c) => compileCondition(c, scope)));
    case 'or':
      return or(condition.conditions.map((c) => compileCondition(c, scope)));
    case 'field':
      return compileField(condition.field, condition.operation, scope);
  }
}

/** better-sqlite3 cannot bind booleans; stored booleans read back as 1/0 anyway. */
function bindable(value: Scalar): string | number {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function valueExpression(storagePath: string, scope: Scope): string {
  return scope.recordLevel ? propertyExpression(storagePath, scope.columns) : jsonExtract(scope.root, storagePath);
}

/** One json_each row per array element: `{from, element}` for an EXISTS subquery. */
function eachElement(field: FieldRef & { access: { kind: 'elements' } }, scope: Scope) {
  const alias = scope.nextAlias();
  const { arrayPath, elementPath } = field.access;
  return {
    from: `json_each(${scope.root}, ${jsonPathLiteral(arrayPath)}) AS ${alias}`,
    // Element sub-paths need an object element; the guard also keeps json_extract off scalars.
    guard: elementPath === '' ? '' : `${alias}.type = 'object' AND `,
    element: elementPath === '' ? `${alias}.value` : jsonExtract(`${alias}.value`, elementPath),
  };
}

function existsElement(
  field: FieldRef & { access: { kind: 'elements' } },
  scope: Scope,
  predicate: (element: string) => SqlFragment,
): SqlFragment {
  const each = eachElement(field, scope);
  return wrap(`EXISTS (SELECT 1 FROM ${each.from} WHERE ${each.guard}`, predicate(each.element), ')');
}

/** `$exists: true` per path kind (an empty array is present). */
function present(field: FieldRef, scope: Scope): SqlFragment {
  const access = field.access;
  if (access.kind === 'value' || access.kind === 'container') {
    return sql(`${valueExpression(access.storagePath, scope)} IS NOT NULL`);
  }
  if (access.arrayPath === field.path) return sql(`${jsonExtract(scope.root, access.arrayPath)} IS NOT NULL`);
  return existsElement({ ...field, access }, scope, (element) => sql(`${element} IS NOT NULL`));
}

function inList(expression: string, values: Scalar[], negate = false): SqlFragment {
  // One JSON parameter instead of one per item: 10,000 items stay far below SQLite's variable limit.
  return sql(`${expression} ${negate ? 'NOT IN' : 'IN'} (SELECT value FROM json_each(?))`, JSON.stringify(values));
}

function nonNull(values: (Scalar | null)[]): Scalar[] {
  return values.filter((v): v is Scalar => v !== null);
}

/** A single-value operation on an expression that may be NULL (missing). */
function compileValueOperation(expression: string, operation: ValueOperation, useIndexRange: boolean): SqlFragment {
  switch (operation.op) {
    case '$eq':
      return operation.value === null
        ? sql(`${expression} IS NULL`)
        : sql(`${expression} = ?`, bindable(operation.value));
    case '$ne':
      // IS NOT is NULL-safe: a missing value is "not equal" (docs: $ne matches missing).
      return operation.value === null
        ? sql(`${expression} IS NOT NULL`)
        : sql(`${expression} IS NOT ?`, bindable(operation.value));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const symbol = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[operation.op];
      if (operation.value === null) return sql('0');
      return sql(`${expression} ${symbol} ?`, bindable(operation.value));
    }
    case '$in': {
      const values = nonNull(operation.values);
      return or([
        ...(operation.values.includes(null) ? [sql(`${expression} IS NULL`)] : []),
        ...(values.length > 0 ? [inList(expression, values)] : []),
      ]);
    }
    case '$nin': {
      const values = nonNull(operation.values);
      const notIn = values.length > 0 ? [inList(expression, values, true)] : [];
      if (operation.values.includes(null)) return and([sql(`${expression} IS NOT NULL`), ...notIn]);
      return notIn.length === 0 ? sql('1') : or([sql(`${expression} IS NULL`), ...notIn]);
    }
    case '$regex': {
      const match = sql(`re_match(?, ?, ${expression})`, operation.regex.source, operation.regex.flags);
      if (!useIndexRange) return match;
      const prefixRanges = regexPrefixRanges(operation.regex);
      const ranges = prefixRanges.map((r) =>
        r.to === undefined
          ? sql(`${expression} >= ?`, r.from)
          : sql(`(${expression} >= ? AND ${expression} < ?)`, r.from, r.to),
      );
      if (ranges.length === 0) return match;
      return prefixRangesAreExact(operation.regex, prefixRanges) ? or(ranges) : and([or(ranges), match]);
    }
  }
}

/** Array semantics: any element matches; `$ne`/`$nin` match when no element does. */
function compileElementsOperation(
  field: FieldRef & { access: { kind: 'elements' } },
  operation: ValueOperation,
  scope: Scope,
): SqlFragment {
  switch (operation.op) {
    case '$eq':
      if (operation.value === null) return not(present(field, scope));
      break;
    case '$ne':
      if (operation.value === null) return present(field, scope);
      return not(
        existsElement(field, scope, (e) => compileValueOperation(e, { op: '$eq', value: operation.value }, false)),
      );
    case '$in':
    case '$nin': {
      const values = nonNull(operation.values);
      const any = or([
        ...(operation.values.includes(null) ? [not(present(field, scope))] : []),
        ...(values.length > 0 ? [existsElement(field, scope, (e) => inList(e, values))] : []),
      ]);
      return operation.op === '$in' ? any : not(any);
    }
    default:
      break;
  }
  return existsElement(field, scope, (e) => compileValueOperation(e, operation, false));
}

function compileField(field: FieldRef, operation: FieldOperation, scope: Scope): SqlFragment {
  const access = field.access;
  switch (operation.op) {
    case '$exists':
      return operation.value ? present(field, scope) : not(present(field, scope));
    case '$size': {
      const arrayPath =
        access.kind === 'elements' ? access.arrayPath : access.kind === 'container' ? access.storagePath : undefined;
      if (arrayPath === undefined) throw new Error(`$size on non-array field ${field.path}`);
      return sql(`json_array_length(${scope.root}, ${jsonPathLiteral(arrayPath)}) = ?`, operation.value);
    }
    case '$all': {
      if (access.kind !== 'elements') throw new Error(`$all on non-array field ${field.path}`);
      if (operation.values.length === 0) return sql('0');
      // "No wanted value lacks a matching element."
      const each = eachElement({ ...field, access }, scope);
      const wanted = scope.nextAlias();
      return sql(
        `NOT EXISTS (SELECT 1 FROM json_each(?) AS ${wanted} WHERE NOT EXISTS (SELECT 1 FROM ${each.from} WHERE ${each.guard}${each.element} = ${wanted}.value))`,
        JSON.stringify(operation.values),
      );
    }
    case '$elemMatch': {
      if ('element' in operation) {
        if (access.kind !== 'container')
          throw new Error(`$elemMatch with conditions on non-document array ${field.path}`);
        const alias = scope.nextAlias();
        const inner: Scope = {
          root: `${alias}.value`,
          recordLevel: false,
          columns: NO_KEY_COLUMNS,
          nextAlias: scope.nextAlias,
        };
        return wrap(
          `EXISTS (SELECT 1 FROM json_each(${scope.root}, ${jsonPathLiteral(access.storagePath)}) AS ${alias} WHERE ${alias}.type = 'object' AND `,
          compileCondition(operation.element, inner),
          ')',
        );
      }
      if (access.kind !== 'elements') throw new Error(`$elemMatch with operators on non-array ${field.path}`);
      return existsElement({ ...field, access }, scope, (e) =>
        and(operation.operations.map((op) => compileValueOperation(e, op, false))),
      );
    }
    default:
      if (access.kind === 'value') {
        return compileValueOperation(valueExpression(access.storagePath, scope), operation, scope.recordLevel);
      }
      if (access.kind === 'elements') return compileElementsOperation({ ...field, access }, operation, scope);
      throw new Error(`${operation.op} on document ${field.path}`);
  }
}
