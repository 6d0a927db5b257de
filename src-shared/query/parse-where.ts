/**
 * Parses the `where` argument into a validated `Condition`.
 *
 * TRUST BOUNDARY: `where` is untrusted text straight from the query string. Everything below
 * treats it as hostile: it is parsed by our own bounded JSON parser, every path is resolved
 * through the object definition (allow-list), every operator is checked against the allowed set,
 * every value is type-checked, and all limits are enforced before anything reaches storage.
 */
import { allProperties, type ObjectDef, type PropertyDef } from '../schema/types.js';
import type { Condition, FieldOperation, Scalar, ValueOperation } from './ast.js';
import { childPath, exactMatchingFault, indexPath, queryFault, unsupportedFault } from './faults.js';
import { resolveField, type ResolvedField } from './fields.js';
import { isJsonObject, JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from './json.js';
import { MAX_DEPTH, MAX_IN_ITEMS, MAX_LOGICAL_CONDITIONS, MAX_QUERY_TEXT_LENGTH } from './limits.js';
import { compileRegex, splitRegexLiteral } from './regex.js';
import { parseScalarValue } from './values.js';

export interface ParseOptions {
  /** Per-org setting: when false, `$ne` and `$nin` are refused. Default true. */
  allowNegations?: boolean;
  /**
   * Lifts the indexed-only rule: the original's privileged `unindexed` option, and the stages of
   * a pipeline that read a stage's output rather than the stored records.
   */
  unindexed?: boolean;
}

export const QUERY_OPERATORS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$regex',
  '$size',
  '$all',
  '$elemMatch',
  '$and',
  '$or',
] as const;

const COMPARISON_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);
/** Operators that apply to one value, and so may be used inside `$elemMatch` on a scalar array. */
const VALUE_OPERATORS = new Set([...COMPARISON_OPERATORS, '$in', '$nin', '$regex']);

interface Scope {
  /** Properties paths resolve against: the definition's, or an array element's in `$elemMatch`. */
  properties: PropertyDef[];
  /** Prefix making a relative path readable in reasons (`c_enrollments.`). */
  displayPrefix: string;
  insideElement: boolean;
  options: ParseOptions;
}

/** Parses `where` text; undefined when absent, blank or `{}`. Faults carry `path` and offsets. */
export function parseWhere(
  text: string | undefined,
  def: ObjectDef,
  options: ParseOptions = {},
): Condition | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (text.length > MAX_QUERY_TEXT_LENGTH) {
    throw queryFault(`where is longer than ${MAX_QUERY_TEXT_LENGTH} characters.`, 'where');
  }
  let document: JsonValue;
  try {
    document = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw queryFault(e.message, 'where');
    throw e;
  }
  return parseWhereDocument(document, def, options);
}

/** Parses an already-decoded where document (the console's query builder holds one). */
export function parseWhereDocument(
  document: unknown,
  def: ObjectDef,
  options: ParseOptions = {},
): Condition | undefined {
  return parseConditionDocument(document, allProperties(def), options);
}

/** Parses a where document over the given properties (a pipeline stage's output, say). */
export function parseConditionDocument(
  document: unknown,
  properties: PropertyDef[],
  options: ParseOptions = {},
): Condition | undefined {
  if (!isJsonObject(document)) throw queryFault('where must be a JSON object.', 'where');
  const scope: Scope = { properties, displayPrefix: '', insideElement: false, options };
  const condition = parseConditionObject(document as JsonObject, scope, 'where', 0);
  return condition.kind === 'and' && condition.conditions.length === 0 ? undefined : condition;
}

function parseConditionObject(object: JsonObject, scope: Scope, path: string, depth: number): Condition {
  const conditions: Condition[] = [];
  for (const [key, value] of Object.entries(object)) {
    const keyPath = childPath(path, key);
    if (key === '$and' || key === '$or') {
      conditions.push(parseLogical(key, value, scope, keyPath, depth));
    } else if (key.startsWith('$')) {
      throw queryFault(`Unsupported query operator ${key}; allowed: ${QUERY_OPERATORS.join(' ')}.`, keyPath);
    } else {
      conditions.push(...parseFieldConditions(key, value, scope, keyPath, depth));
    }
  }
  return conditions.length === 1 && conditions[0] ? conditions[0] : { kind: 'and', conditions };
}

function parseLogical(op: '$and' | '$or', value: JsonValue, scope: Scope, path: string, depth: number): Condition {
  if (!Array.isArray(value) || value.length === 0)
    throw queryFault(`${op} must be a non-empty array of conditions.`, path);
  if (value.length > MAX_LOGICAL_CONDITIONS) {
    throw queryFault(`${op} may hold at most ${MAX_LOGICAL_CONDITIONS} conditions.`, path);
  }
  assertDepth(depth + 1, path);
  const conditions = value.map((item, i) => {
    if (!isJsonObject(item)) throw queryFault(`Each ${op} entry must be a condition object.`, indexPath(path, i));
    return parseConditionObject(item, scope, indexPath(path, i), depth + 1);
  });
  return { kind: op === '$and' ? 'and' : 'or', conditions };
}

function assertDepth(depth: number, path: string): void {
  if (depth > MAX_DEPTH) throw queryFault(`Conditions are nested deeper than ${MAX_DEPTH} levels.`, path);
}

/** `{path: value}` → one condition per operator (several operators on one path are AND-ed). */
function parseFieldConditions(
  propertyPath: string,
  value: JsonValue,
  scope: Scope,
  path: string,
  depth: number,
): Condition[] {
  const display = scope.displayPrefix + propertyPath;
  const resolved = resolveField(scope.properties, propertyPath, path, display);
  if (scope.insideElement && resolved.field.access.kind !== 'value') {
    throw unsupportedFault(
      `"${display}" is an array or document inside an array, which $elemMatch doesn't support.`,
      path,
    );
  }
  const operations = operatorEntries(value, display, path);
  return operations.map(([op, operand, opPath]) => ({
    kind: 'field',
    field: resolved.field,
    operation: parseOperation(op, operand, resolved, scope, opPath, depth, display),
  }));
}

/** Splits a field's value into `[operator, operand, faultPath]`; a plain value is an implicit `$eq`. */
function operatorEntries(value: JsonValue, display: string, path: string): [string, JsonValue, string][] {
  if (Array.isArray(value)) {
    throw exactMatchingFault(`"${display}" can't be matched against a whole array; use $in, $all or $elemMatch.`, path);
  }
  if (!isJsonObject(value)) return [['$eq', value, path]];
  const keys = Object.keys(value);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (keys.length === 0 || operators.length === 0) {
    throw exactMatchingFault(
      `"${display}" can't be matched against a whole document; match its properties by path.`,
      path,
    );
  }
  if (operators.length !== keys.length) {
    throw queryFault(`The condition on "${display}" mixes operators and property names.`, path);
  }
  return keys.map((k) => [k, value[k] as JsonValue, childPath(path, k)]);
}

function parseOperation(
  op: string,
  operand: JsonValue,
  resolved: ResolvedField,
  scope: Scope,
  path: string,
  depth: number,
  display: string,
): FieldOperation {
  const { field, def } = resolved;
  const isContainer = field.access.kind === 'container';
  if (op === '$and' || op === '$or' || !(QUERY_OPERATORS as readonly string[]).includes(op)) {
    throw queryFault(`Unsupported operator ${op} on "${display}".`, path);
  }
  if ((op === '$ne' || op === '$nin') && scope.options.allowNegations === false) {
    throw queryFault(`The ${op} operator is turned off for this org.`, path);
  }
  if (isContainer && op !== '$exists' && op !== '$size' && op !== '$elemMatch') {
    throw exactMatchingFault(
      `"${display}" is a document; ${op} can only compare its properties (e.g. "${display}.<name>").`,
      path,
    );
  }
  // An $elemMatch on an array of documents matches the element properties, which are checked
  // for indexes one by one; everything else matches the property itself.
  if (!(op === '$elemMatch' && isContainer) && !resolved.indexed && scope.options.unindexed !== true) {
    throw queryFault(`Property "${display}" is not indexed, so it can't be used in where.`, path);
  }
  switch (op) {
    case '$exists':
      if (typeof operand !== 'boolean') throw queryFault('$exists takes true or false.', path);
      return { op, value: operand };
    case '$size':
      if (def.array !== true) throw queryFault(`$size applies to array properties; "${display}" is not one.`, path);
      if (typeof operand !== 'number' || !Number.isSafeInteger(operand) || operand < 0) {
        throw queryFault('$size takes a non-negative integer.', path);
      }
      return { op, value: operand };
    case '$all':
      if (field.access.kind !== 'elements')
        throw queryFault(`$all applies to array properties; "${display}" is not one.`, path);
      return { op, values: parseOperandList(op, operand, field.type, path, false) as Scalar[] };
    case '$elemMatch':
      return parseElemMatch(operand, resolved, scope, path, depth, display);
    default:
      return parseValueOperation(op, operand, resolved, path, display);
  }
}

function parseValueOperation(
  op: string,
  operand: JsonValue,
  resolved: ResolvedField,
  path: string,
  display: string,
): ValueOperation {
  const type = resolved.field.type;
  if (op === '$in' || op === '$nin') return { op, values: parseOperandList(op, operand, type, path, true) };
  if (op === '$regex') {
    if (type !== 'String') throw queryFault(`$regex applies to String properties; "${display}" is ${type}.`, path);
    if (typeof operand !== 'string') throw queryFault('$regex takes a string written /pattern/flags.', path);
    const regex = splitRegexLiteral(operand);
    if (typeof regex === 'string') throw queryFault(regex, path);
    try {
      compileRegex(regex);
    } catch (e) {
      throw queryFault(`Invalid $regex pattern: ${e instanceof Error ? e.message : String(e)}.`, path);
    }
    return { op, regex };
  }
  if (!COMPARISON_OPERATORS.has(op)) {
    throw queryFault(`${op} can't be used inside $elemMatch on a list of values.`, path);
  }
  const comparison = op as '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
  if (operand === null) {
    if (comparison === '$eq' || comparison === '$ne') return { op: comparison, value: null };
    throw queryFault(`${op} needs a value; null stands for a missing value and only $eq / $ne accept it.`, path);
  }
  return { op: comparison, value: parseScalarValue(operand, type, path) };
}

function parseOperandList(
  op: string,
  operand: JsonValue,
  type: ResolvedField['field']['type'],
  path: string,
  allowNull: boolean,
): (Scalar | null)[] {
  if (!Array.isArray(operand)) throw queryFault(`${op} takes an array of values.`, path);
  if (operand.length > MAX_IN_ITEMS) throw queryFault(`${op} may hold at most ${MAX_IN_ITEMS} values.`, path);
  return operand.map((v, i) => {
    if (v === null) {
      if (allowNull) return null;
      throw queryFault(`${op} values can't be null.`, indexPath(path, i));
    }
    return parseScalarValue(v, type, indexPath(path, i));
  });
}

function parseElemMatch(
  operand: JsonValue,
  resolved: ResolvedField,
  scope: Scope,
  path: string,
  depth: number,
  display: string,
): FieldOperation {
  const { field, def } = resolved;
  if (def.array !== true) throw queryFault(`$elemMatch applies to array properties; "${display}" is not one.`, path);
  if (!isJsonObject(operand) || Object.keys(operand).length === 0) {
    throw queryFault('$elemMatch takes a non-empty condition object.', path);
  }
  assertDepth(depth + 1, path);
  if (field.access.kind === 'container') {
    const elementScope: Scope = {
      properties: def.properties ?? [],
      displayPrefix: `${display}.`,
      insideElement: true,
      options: scope.options,
    };
    return { op: '$elemMatch', element: parseConditionObject(operand, elementScope, path, depth + 1) };
  }
  const operations = Object.entries(operand).map(([op, value]) => {
    const opPath = childPath(path, op);
    if (!op.startsWith('$')) {
      throw queryFault(`"${display}" holds single values; $elemMatch on it takes operators such as $gt.`, opPath);
    }
    if (!VALUE_OPERATORS.has(op)) {
      throw queryFault(`${op} can't be used inside $elemMatch on a list of values.`, opPath);
    }
    if ((op === '$ne' || op === '$nin') && scope.options.allowNegations === false) {
      throw queryFault(`The ${op} operator is turned off for this org.`, opPath);
    }
    return parseValueOperation(op, value, resolved, opPath, display);
  });
  return { op: '$elemMatch', operations };
}
