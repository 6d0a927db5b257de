/**
 * The stages that filter, order and cut (`$match`, `$sort`, `$skip`, `$limit`), `$unwind` and
 * `$count`. `$match` is the where language, over the stored records (indexed properties only,
 * unless the privileged `unindexed` option) or over a stage's output (any property).
 */
import { FaultError, type FaultBody } from '../../faults.js';
import type { PropertyDef } from '../../schema/types.js';
import { childPath, queryFault, unsupportedFault } from '../faults.js';
import type { Condition, FieldRef } from '../ast.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { MAX_SORT_KEYS, MAX_STAGE_LIMIT, MAX_STAGE_SKIP, OUTPUT_NAME_PATTERN } from '../limits.js';
import { parseConditionDocument } from '../parse-where.js';
import type { SortStageKey, ValueType } from './ast.js';
import { assertOutputName, assertReadable, resolveInScope, type StageScope } from './stage-scope.js';

/** `$match`: the where language on the stage's input. */
export function parseMatch(value: JsonValue, scope: StageScope, path: string): Condition {
  if (!isJsonObject(value)) throw queryFault('$match takes a where object.', path);
  if (Object.keys(value).length === 0) throw queryFault('Empty $match pipeline stage.', path);
  const options = { ...scope.options, unindexed: scope.options.unindexed === true || !scope.head };
  // On the records, parse against every property so an unreadable one is refused by name below.
  const properties = scope.records ? scope.allRecordProperties : scope.properties;
  const condition = renamePaths(path, () => parseConditionDocument(value, properties, options));
  if (!condition) throw queryFault('Empty $match pipeline stage.', path);
  if (scope.records) for (const p of conditionPaths(condition)) assertReadable(scope, p, path);
  return condition;
}

/** The where parser names its faults `where…`; in a pipeline they are `pipeline[i].$match…`. */
function renamePaths<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    const rename = (f: FaultBody): FaultBody => ({
      ...f,
      ...(f.path !== undefined ? { path: f.path.replace(/^where/, prefix) } : {}),
      ...(f.faults ? { faults: f.faults.map(rename) } : {}),
    });
    throw new FaultError(rename(err.fault));
  }
}

function conditionPaths(condition: Condition): string[] {
  if (condition.kind === 'field') return [condition.field.path];
  return condition.conditions.flatMap(conditionPaths);
}

/** `$sort`: `{path: 1 | -1}` in key order, or a bare name (ascending). Stable: ties keep their order. */
export function parseSortStage(value: JsonValue, scope: StageScope, path: string): SortStageKey[] {
  const spec = typeof value === 'string' ? { [value]: 1 } : value;
  if (!isJsonObject(spec)) throw queryFault('$sort takes an object of paths and directions.', path);
  const entries = Object.entries(spec);
  if (entries.length === 0) throw queryFault('Empty $sort pipeline stage.', path);
  if (entries.length > MAX_SORT_KEYS) throw queryFault(`$sort may name at most ${MAX_SORT_KEYS} paths.`, path);
  return entries.map(([key, direction]) => {
    const keyPath = childPath(path, key);
    if (direction !== 1 && direction !== -1) {
      throw queryFault('Sort value must be 1 for ascending, or -1 for descending order.', keyPath);
    }
    const resolved = resolveInScope(scope, key, keyPath);
    if (resolved.field.access.kind !== 'value') {
      throw queryFault('Array sorting is unsupported; sort by single values.', keyPath);
    }
    if (scope.head && !resolved.indexed && scope.options.unindexed !== true) {
      throw queryFault('Sorting can only occur against indexed properties.', keyPath);
    }
    return { field: resolved.field, direction };
  });
}

/** `$skip` / `$limit`: a whole number (or its text), within the original's bounds. */
export function parseCount(value: JsonValue, kind: 'skip' | 'limit', path: string): number {
  const n = typeof value === 'string' && /^\d{1,7}$/.test(value.trim()) ? Number(value) : value;
  const min = kind === 'skip' ? 0 : 1;
  const max = kind === 'skip' ? MAX_STAGE_SKIP : MAX_STAGE_LIMIT;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw queryFault(`$${kind} must be an integer between ${min} and ${max}, inclusive.`, path);
  }
  return n;
}

export interface ParsedUnwind {
  field: FieldRef;
  element: ValueType;
  output: PropertyDef[];
}

/** `$unwind: "path"` or `{path}`: an array property (values or documents). */
export function parseUnwind(value: JsonValue, scope: StageScope, path: string): ParsedUnwind {
  let target: JsonValue | undefined = value;
  if (isJsonObject(value)) {
    const extra = Object.keys(value).find((k) => k !== 'path');
    if (extra) throw unsupportedFault(`$unwind does not support ${extra}; only path.`, childPath(path, extra));
    target = value.path;
  }
  if (typeof target !== 'string' || target === '') throw queryFault('$unwind property must be a property name.', path);
  const name = target.startsWith('$') ? target.slice(1) : target;
  if (target.startsWith('$')) {
    throw queryFault(`Property paths are written without $ ("${name}").`, path);
  }
  const resolved = resolveInScope(scope, name, path);
  const { field, def } = resolved;
  const isArray =
    (field.access.kind === 'elements' && field.access.arrayPath === name) ||
    (field.access.kind === 'container' && field.access.isArray);
  if (!isArray) throw queryFault(`"${name}" is not an array, so it can't be unwound.`, path);
  const elementDef: PropertyDef = { ...def, array: false };
  const element: ValueType = { type: def.type, ...(def.properties ? { properties: def.properties } : {}) };
  return { field, element, output: replaceProperty(scope.properties, name.split('.'), elementDef) };
}

function replaceProperty(props: PropertyDef[], segments: string[], replacement: PropertyDef): PropertyDef[] {
  const [head, ...rest] = segments;
  return props.map((p) => {
    if (p.name !== head) return p;
    if (rest.length === 0) return { ...replacement, name: p.name };
    return { ...p, properties: replaceProperty(p.properties ?? [], rest, replacement) };
  });
}

/** `$count: "name"`: one document holding how many came in (none when nothing did). */
export function parseCountStage(value: JsonValue, path: string): string {
  if (typeof value !== 'string') throw queryFault('$count takes the name of the output field.', path);
  assertOutputName(value, path, OUTPUT_NAME_PATTERN);
  return value;
}
