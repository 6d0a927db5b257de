/**
 * Applies normalised PATCH operations (patch-ops.ts) to a copy of a plain JSON record: all or
 * nothing, arrays addressed by element `_id` or index, pushes bounded. Pure, like the parsing.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkCount, MAX_PUSHED_ARRAY_LENGTH, type PatchOp } from './patch-ops.js';
import { badOp, dotted, FORBIDDEN_SEGMENTS, isObject, isPrimitive, type Json, type JsonObject } from './patch-path.js';

export interface PatchOptions {
  /** `set` of an object onto an object merges them key by key (arrays still replaced). */
  mergeDocuments?: boolean;
}

export interface PatchResult {
  doc: JsonObject;
  /** Dotted paths the operations touched, in order, once each: what property scopes are checked on. */
  modifiedPaths: string[];
}

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
