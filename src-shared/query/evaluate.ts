/**
 * In-memory evaluator of the list-query AST over plain JSON records (`{_id, ...stored props}`).
 * It is the executable form of docs/query-semantics.md: the differential tests hold the SQL
 * compiler to it, and the console can use it to preview a query over loaded rows.
 */
import type { Condition, FieldOperation, FieldRef, ListQuery, Scalar, ValueOperation } from './ast.js';
import { compareSqlValues, sqlEquals, toSqlValue, type SqlValue } from './compare.js';
import { effectiveSort } from './ordering.js';
import { createRegexMatcher } from './regex.js';

export type JsonRecord = Record<string, unknown>;

const regexMatches = createRegexMatcher(256);

function isPlainObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path, or undefined when any step is missing or not a document. */
export function readPath(root: unknown, path: string): unknown {
  let current = root;
  for (const segment of path.split('.')) {
    if (!isPlainObject(current) || !Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The matched values of an `elements` field: each element, or the sub-property of each element. */
function elementValues(root: JsonRecord, arrayPath: string, elementPath: string): SqlValue[] {
  const array = readPath(root, arrayPath);
  if (!Array.isArray(array)) return [];
  return array.map((element) => toSqlValue(elementPath === '' ? element : readPath(element, elementPath)));
}

/** A single-value operation on one value (a scalar property, or one array element). */
function matchesValue(x: SqlValue, operation: ValueOperation): boolean {
  switch (operation.op) {
    case '$eq':
      return operation.value === null ? x === null : sqlEquals(x, toSqlValue(operation.value));
    case '$ne':
      return operation.value === null ? x !== null : !sqlEquals(x, toSqlValue(operation.value));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (x === null || operation.value === null) return false;
      const c = compareSqlValues(x, toSqlValue(operation.value));
      return operation.op === '$gt'
        ? c > 0
        : operation.op === '$gte'
          ? c >= 0
          : operation.op === '$lt'
            ? c < 0
            : c <= 0;
    }
    case '$in':
      return inList(x, operation.values);
    case '$nin':
      return !inList(x, operation.values);
    case '$regex':
      return regexMatches(operation.regex.source, operation.regex.flags, x);
  }
}

function inList(x: SqlValue, values: (Scalar | null)[]): boolean {
  return values.some((v) => (v === null ? x === null : sqlEquals(x, toSqlValue(v))));
}

/** Whether a field is present, per kind (docs: "$exists: true means present"). */
function fieldPresent(root: JsonRecord, field: FieldRef): boolean {
  const access = field.access;
  if (access.kind === 'value' || access.kind === 'container') return present(readPath(root, access.storagePath));
  if (access.arrayPath === field.path) return present(readPath(root, access.arrayPath));
  return elementValues(root, access.arrayPath, access.elementPath).some((v) => v !== null);
}

/** Array semantics: comparisons match when any element matches; `$ne`/`$nin` when none does. */
function matchesElements(root: JsonRecord, field: FieldRef, values: SqlValue[], operation: ValueOperation): boolean {
  switch (operation.op) {
    case '$eq':
      return operation.value === null ? !fieldPresent(root, field) : values.some((x) => matchesValue(x, operation));
    case '$ne':
      return operation.value === null
        ? fieldPresent(root, field)
        : !values.some((x) => matchesValue(x, { op: '$eq', value: operation.value }));
    case '$in':
    case '$nin': {
      const nonNull = operation.values.filter((v): v is Scalar => v !== null);
      const any =
        (operation.values.includes(null) && !fieldPresent(root, field)) || values.some((x) => inList(x, nonNull));
      return operation.op === '$in' ? any : !any;
    }
    default:
      return values.some((x) => matchesValue(x, operation));
  }
}

function matchesField(root: JsonRecord, field: FieldRef, operation: FieldOperation): boolean {
  const access = field.access;
  if (operation.op === '$exists') return fieldPresent(root, field) === operation.value;
  if (operation.op === '$size') {
    const array = readPath(
      root,
      access.kind === 'elements' ? access.arrayPath : access.kind === 'container' ? access.storagePath : '',
    );
    return Array.isArray(array) && array.length === operation.value;
  }
  if (operation.op === '$elemMatch') {
    if ('element' in operation) {
      const array = access.kind === 'container' ? readPath(root, access.storagePath) : undefined;
      return Array.isArray(array) && array.some((el) => isPlainObject(el) && matchesCondition(el, operation.element));
    }
    if (access.kind !== 'elements') return false;
    return elementValues(root, access.arrayPath, access.elementPath).some((x) =>
      operation.operations.every((op) => matchesValue(x, op)),
    );
  }
  if (operation.op === '$all') {
    if (access.kind !== 'elements' || operation.values.length === 0) return false;
    const values = elementValues(root, access.arrayPath, access.elementPath);
    return operation.values.every((v) => values.some((x) => sqlEquals(x, toSqlValue(v))));
  }
  if (access.kind === 'value') return matchesValue(toSqlValue(readPath(root, access.storagePath)), operation);
  if (access.kind === 'elements') {
    return matchesElements(root, field, elementValues(root, access.arrayPath, access.elementPath), operation);
  }
  return false; // the parser refuses value operations on documents
}

/** Whether a record (or, inside `$elemMatch`, one array element) satisfies a condition. */
export function matchesCondition(root: JsonRecord, condition: Condition): boolean {
  switch (condition.kind) {
    case 'and':
      return condition.conditions.every((c) => matchesCondition(root, c));
    case 'or':
      return condition.conditions.some((c) => matchesCondition(root, c));
    case 'field':
      return matchesField(root, condition.field, condition.operation);
  }
}

/** Orders records by the query's effective (total) sort. */
export function compareRecords(query: Pick<ListQuery, 'sort'>): (a: JsonRecord, b: JsonRecord) => number {
  const keys = effectiveSort(query.sort);
  return (a, b) => {
    for (const { field, direction } of keys) {
      const path = field.access.kind === 'value' ? field.access.storagePath : field.path;
      const c = compareSqlValues(toSqlValue(readPath(a, path)), toSqlValue(readPath(b, path)));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}

/**
 * where → sort → skip → limit over records in memory. `data` holds the records themselves;
 * apply `projectPaths` for `paths[]`.
 */
export function runListQuery<T extends JsonRecord>(
  records: readonly T[],
  query: ListQuery,
): { data: T[]; hasMore: boolean } {
  const where = query.where;
  const matched = where ? records.filter((r) => matchesCondition(r, where)) : [...records];
  matched.sort(compareRecords(query));
  const end = query.skip + query.limit;
  return { data: matched.slice(query.skip, end), hasMore: matched.length > end };
}
