/**
 * PATCH operations (docs/compatibility.md#patch-and-put) in their wire forms — an operation array, a
 * plain-object merge, PUT, sub-path routes, the driver's `$set`/`$push`/… update documents —
 * parsed into one normalised list. patch-apply.ts applies that list to a record.
 *
 * Pure: no storage, no schema, no access. The caller validates the result against the object's
 * definition and checks property scopes on `modifiedPaths` exactly as for any other write.
 */
import { fault } from '../../../src-shared/faults.js';
import { badOp, dotted, isObject, isPrimitive, parsePath, type Json } from './patch-path.js';

/** More operations than this in one request is refused (a request is one write, not a batch job). */
export const MAX_PATCH_OPS = 1000;
/** No array grows past this by `push`; every write of an array is bounded (issue #15). */
export const MAX_PUSHED_ARRAY_LENGTH = 10_000;
/** A normalised operation: `path` is the list of segments ([] is the record itself). */
export type PatchOp =
  | { op: 'set'; path: string[]; value: Json }
  | { op: 'push'; path: string[]; values: Json[] }
  | { op: 'remove'; path: string[]; values?: Json[] }
  | { op: 'unset'; path: string[] };

const OP_NAMES = new Set(['set', 'push', 'remove', 'unset', 'pull']);

export function checkCount(ops: PatchOp[]): PatchOp[] {
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
          // As the original: an array value appends each of its items (never the array as one item).
          const each =
            isObject(value) && Array.isArray(value.$each) ? value.$each : Array.isArray(value) ? value : [value];
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
