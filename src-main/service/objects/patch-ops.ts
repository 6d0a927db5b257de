/**
 * PATCH operations (original-clients.md §F) on plain JSON records: parsing the wire forms (an
 * operation array, a plain-object merge, PUT, sub-path routes, the driver's `$set`/`$push`/…
 * update documents) into one normalised list, and applying that list to a record.
 *
 * Pure: no storage, no schema, no access. The caller validates the result against the object's
 * definition and checks property scopes on `modifiedPaths` exactly as for any other write.
 */
import { fault, type FaultError } from '../../../src-shared/faults.js';

/** More operations than this in one request is refused (a request is one write, not a batch job). */
export const MAX_PATCH_OPS = 1000;
/** No array grows past this by `push`; every write of an array is bounded (issue #15). */
export const MAX_PUSHED_ARRAY_LENGTH = 10_000;
/** Deeper paths than this are refused; records are not that deep. */
export const MAX_PATH_DEPTH = 32;

/** Segments that would reach an object's prototype if a later step ever used a naive assignment. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A normalised operation: `path` is the list of segments ([] is the record itself). */
export type PatchOp =
  | { op: 'set'; path: string[]; value: Json }
  | { op: 'push'; path: string[]; values: Json[] }
  | { op: 'remove'; path: string[]; values?: Json[] }
  | { op: 'unset'; path: string[] };

export interface PatchOptions {
  /** `set` of an object onto an object merges them key by key (arrays still replaced). */
  mergeDocuments?: boolean;
}

export interface PatchResult {
  doc: JsonObject;
  /** Dotted paths the operations touched, in order, once each: what property scopes are checked on. */
  modifiedPaths: string[];
}

const OP_NAMES = new Set(['set', 'push', 'remove', 'unset', 'pull']);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is null | boolean | number | string {
  return value === null || ['boolean', 'number', 'string'].includes(typeof value);
}

function dotted(path: string[]): string {
  return path.join('.');
}

function badOp(path: string[] | string, reason: string): FaultError {
  return fault('invalidArgument', 'patchOp', { reason, path: typeof path === 'string' ? path : dotted(path) });
}

/** `a.b`, `a/b`, `/a/b` → ['a','b']; refuses empty and prototype segments. */
export function parsePath(raw: unknown, where = ''): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw !== 'string') throw badOp(where, 'An operation path must be a string.');
  const segments = raw.replace(/^\//, '').split(/[./]/);
  for (const segment of segments) {
    if (segment === '') throw badOp(raw, 'An operation path has an empty segment.');
    if (FORBIDDEN_SEGMENTS.has(segment)) throw badOp(raw, `"${segment}" cannot be part of a path.`);
  }
  if (segments.length > MAX_PATH_DEPTH) throw badOp(raw, `A path has at most ${MAX_PATH_DEPTH} segments.`);
  return segments;
}

function checkCount(ops: PatchOp[]): PatchOp[] {
  if (ops.length > MAX_PATCH_OPS) {
    throw fault('tooLarge', 'patchOps', { reason: `A request carries at most ${MAX_PATCH_OPS} operations.` });
  }
  return ops;
}

function asValues(value: Json): Json[] {
  return Array.isArray(value) ? value : [value];
}

/** One wire operation `{op, path?, value?}` → normalised operations (an `unset` object gives several). */
function parseOne(input: unknown, index: number, prefix: string[]): PatchOp[] {
  if (!isObject(input)) throw badOp(dotted(prefix), `Operation ${index} is not an object.`);
  const name = input.op;
  const raw = input.path;
  const own = parsePath(raw, dotted(prefix));
  const path = [...prefix, ...own];
  if (typeof name !== 'string' || !OP_NAMES.has(name)) {
    throw fault('unsupportedOperation', 'patchOp', {
      reason: `Unsupported patch operation ${JSON.stringify(name ?? null)}; use set, push, remove, unset or pull.`,
      path: dotted(path),
    });
  }
  const hasValue = 'value' in input && input.value !== undefined;
  const value = input.value as Json;
  switch (name) {
    case 'set':
      if (!hasValue) throw badOp(path, 'set needs a value.');
      // Without a path of its own, an object value is a merge: one set per key, under the prefix.
      if (own.length === 0 && isObject(value)) {
        return Object.entries(value).map(([key, v]) => ({ op: 'set', path: [...path, ...parsePath(key)], value: v }));
      }
      if (path.length === 0) throw badOp(path, 'set without a path needs an object value.');
      return [{ op: 'set', path, value }];
    case 'push':
      if (path.length === 0) throw badOp(path, 'push needs a path.');
      if (!hasValue) throw badOp(path, 'push needs a value.');
      return [{ op: 'push', path, values: asValues(value) }];
    case 'pull':
      if (path.length === 0) throw badOp(path, 'pull needs a path.');
      if (!hasValue) throw badOp(path, 'pull needs a value.');
      return [{ op: 'remove', path, values: asValues(value) }];
    case 'remove':
      if (path.length === 0) throw badOp(path, 'remove needs a path.');
      if (!hasValue) return [{ op: 'remove', path }];
      if (!isPrimitive(value) && !(Array.isArray(value) && value.every(isPrimitive))) {
        throw badOp(path, 'remove takes a primitive value (or a list of them) to remove from an array.');
      }
      return [{ op: 'remove', path, values: asValues(value) }];
    default: {
      // unset: a value object names the keys to remove under the path; without one, the path itself.
      if (hasValue) {
        if (!isObject(value)) throw badOp(path, 'unset takes an object whose keys are removed.');
        return Object.keys(value).map((key) => ({ op: 'unset', path: [...path, ...parsePath(key)] }));
      }
      if (path.length === 0) throw badOp(path, 'unset needs a path or a value object.');
      return [{ op: 'unset', path }];
    }
  }
}

/**
 * A PATCH body: an operation array, or a plain object (a merge `set`). `subPath` is the route's
 * `<path>` in `PATCH /<object>/<_id>/<path>`, prefixed to every operation's path.
 */
export function parsePatchBody(body: unknown, subPath?: string): PatchOp[] {
  const prefix = parsePath(subPath);
  if (Array.isArray(body)) {
    if (body.length > MAX_PATCH_OPS) checkCount(body as PatchOp[]);
    return checkCount(body.flatMap((op, index) => parseOne(op, index, prefix)));
  }
  if (isObject(body)) return checkCount(parseOne({ op: 'set', value: body }, 0, prefix));
  throw badOp(dotted(prefix), 'A PATCH body is an array of operations or an object.');
}

/** `PUT /<object>/<_id>` sets the given properties (arrays replaced); `PUT …/<path>` sets that path. */
export function putOps(body: unknown, subPath?: string): PatchOp[] {
  const prefix = parsePath(subPath);
  if (prefix.length > 0) {
    if (body === undefined) throw badOp(prefix, 'PUT to a path needs a value.');
    return [{ op: 'set', path: prefix, value: body as Json }];
  }
  if (!isObject(body)) throw badOp('', 'A PUT body is an object of the properties to set.');
  return checkCount(parseOne({ op: 'set', value: body }, 0, []));
}

/** `POST /<object>/<_id>/<path>` pushes the body (one value, or each value of an array). */
export function postOps(subPath: string, body: unknown): PatchOp[] {
  return parseOne({ op: 'push', path: subPath, value: body }, 0, []);
}

/** `DELETE /<object>/<_id>/<path>` removes that path (an array element when it names one by `_id`). */
export function deleteOps(subPath: string): PatchOp[] {
  return parseOne({ op: 'remove', path: subPath }, 0, []);
}

/**
 * A driver `update` document (`updateOne`/`updateMany`, §A): `$set {path: value}`,
 * `$unset {path: any}`, `$push {path: value | {$each: [...]}}`, `$pull {path: value}`,
 * `$remove {path: value}`; each entry becomes one operation. Plain keys are a `$set`.
 */
export function updateToOps(update: unknown): PatchOp[] {
  if (!isObject(update)) throw badOp('', 'update is an object of $set, $unset, $push, $pull or $remove.');
  const ops: PatchOp[] = [];
  for (const [key, arg] of Object.entries(update)) {
    if (!key.startsWith('$')) {
      ops.push(...parseOne({ op: 'set', path: key, value: arg }, ops.length, []));
      continue;
    }
    if (!isObject(arg)) throw badOp(key, `${key} takes an object of paths.`);
    for (const [path, value] of Object.entries(arg)) {
      switch (key) {
        case '$set':
          ops.push(...parseOne({ op: 'set', path, value }, ops.length, []));
          break;
        case '$unset':
          ops.push(...parseOne({ op: 'unset', path }, ops.length, []));
          break;
        case '$push': {
          const each = isObject(value) && Array.isArray(value.$each) ? value.$each : [value];
          ops.push({ op: 'push', path: parsePath(path), values: each });
          break;
        }
        case '$pull':
          ops.push(...parseOne({ op: 'pull', path, value }, ops.length, []));
          break;
        case '$remove':
          ops.push(...parseOne({ op: 'remove', path, value }, ops.length, []));
          break;
        default:
          throw fault('unsupportedOperation', 'patchOp', {
            reason: `Unsupported update operator ${key}; use $set, $unset, $push, $pull or $remove.`,
            path: key,
          });
      }
    }
  }
  return checkCount(ops);
}

// ------------------------------------------------------------------------------------------------

/** In an array, a segment names the element whose `_id` equals it, else a numeric index. */
function arrayIndex(array: Json[], segment: string): number {
  const byId = array.findIndex((el) => isObject(el) && el._id === segment);
  if (byId >= 0) return byId;
  return /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < array.length ? Number(segment) : -1;
}

type Container = JsonObject | Json[];

/** The container holding the last segment, creating objects on the way when `create` is set. */
function parentOf(doc: JsonObject, path: string[], create: boolean): Container | undefined {
  let node: Json = doc;
  for (let i = 0; i < path.length - 1; i += 1) {
    const segment = path[i]!;
    let next: Json | undefined;
    if (Array.isArray(node)) {
      const at = arrayIndex(node, segment);
      next = at >= 0 ? node[at] : undefined;
      if (next === undefined) {
        if (!create) return undefined;
        throw badOp(path, `No element "${segment}" in the array at ${dotted(path.slice(0, i))}.`);
      }
    } else if (isObject(node)) {
      next = Object.hasOwn(node, segment) ? node[segment] : undefined;
      if (next === undefined || next === null) {
        if (!create) return undefined;
        next = {};
        node[segment] = next;
      }
    } else {
      if (!create) return undefined;
      throw badOp(path, `${dotted(path.slice(0, i))} is not an object.`);
    }
    node = next;
  }
  if (Array.isArray(node) || isObject(node)) return node;
  if (!create) return undefined;
  throw badOp(path, `${dotted(path.slice(0, -1))} is not an object.`);
}

function read(container: Container, segment: string): Json | undefined {
  if (Array.isArray(container)) {
    const at = arrayIndex(container, segment);
    return at >= 0 ? container[at] : undefined;
  }
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}

function merge(target: JsonObject, source: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? merge(current, value) : value;
  }
  return out;
}

function sameValue(element: Json, value: Json): boolean {
  if (isPrimitive(value)) return element === value || (isObject(element) && element._id === value);
  return JSON.stringify(element) === JSON.stringify(value);
}

/** Applies one operation to `doc` (a private copy); returns whether anything changed. */
function applyOne(doc: JsonObject, op: PatchOp, opts: PatchOptions): boolean {
  const last = op.path[op.path.length - 1]!;
  switch (op.op) {
    case 'set': {
      const parent = parentOf(doc, op.path, true)!;
      const value = structuredClone(op.value);
      if (Array.isArray(parent)) {
        const at = arrayIndex(parent, last);
        if (at < 0) throw badOp(op.path, `No element "${last}" in the array.`);
        parent[at] = value;
        return true;
      }
      const current = Object.hasOwn(parent, last) ? parent[last] : undefined;
      parent[last] = opts.mergeDocuments && isObject(current) && isObject(value) ? merge(current, value) : value;
      return true;
    }
    case 'push': {
      const parent = parentOf(doc, op.path, true)!;
      const current = read(parent, last);
      if (current !== undefined && current !== null && !Array.isArray(current)) {
        throw badOp(op.path, 'push needs an array at its path.');
      }
      const array = current ?? [];
      if (array.length + op.values.length > MAX_PUSHED_ARRAY_LENGTH) {
        throw fault('tooLarge', 'array', {
          reason: `An array holds at most ${MAX_PUSHED_ARRAY_LENGTH} values.`,
          path: dotted(op.path),
        });
      }
      array.push(...structuredClone(op.values));
      if (current !== array) {
        if (Array.isArray(parent)) throw badOp(op.path, 'push cannot create an array element.');
        parent[last] = array;
      }
      return op.values.length > 0;
    }
    case 'remove': {
      const parent = parentOf(doc, op.path, false);
      if (!parent) return false;
      if (op.values) {
        const current = read(parent, last);
        if (current === undefined || current === null) return false;
        if (!Array.isArray(current)) throw badOp(op.path, 'remove with a value needs an array at its path.');
        const kept = current.filter((el) => !op.values!.some((v) => sameValue(el, v)));
        if (kept.length === current.length) return false;
        current.splice(0, current.length, ...kept);
        return true;
      }
      return unsetIn(parent, last);
    }
    default: {
      const parent = parentOf(doc, op.path, false);
      return parent ? unsetIn(parent, last) : false;
    }
  }
}

function unsetIn(parent: Container, segment: string): boolean {
  if (Array.isArray(parent)) {
    const at = arrayIndex(parent, segment);
    if (at < 0) return false;
    parent.splice(at, 1);
    return true;
  }
  if (!Object.hasOwn(parent, segment)) return false;
  delete parent[segment];
  return true;
}

/**
 * Applies operations in order to a copy of `doc`; the input is never changed. All or nothing: a
 * fault from any operation leaves no partial result.
 */
export function applyPatch(doc: JsonObject, ops: readonly PatchOp[], opts: PatchOptions = {}): PatchResult {
  checkCount([...ops]);
  const out = structuredClone(doc);
  const modified = new Set<string>();
  for (const op of ops) {
    if (op.path.length === 0) throw badOp(op.path, `${op.op} needs a path.`);
    for (const segment of op.path) {
      if (FORBIDDEN_SEGMENTS.has(segment)) throw badOp(op.path, `"${segment}" cannot be part of a path.`);
    }
    if (applyOne(out, op, opts)) modified.add(dotted(op.path));
  }
  return { doc: out, modifiedPaths: [...modified] };
}
