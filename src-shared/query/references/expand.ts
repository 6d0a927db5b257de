/**
 * Expands references in presented records, level by level: at each depth the ids of every
 * reference to one object are loaded together, so a page costs one load per referenced object per
 * depth, never one per record. Whatever the loader does not answer (missing, or not readable by the
 * caller) stays the bare reference, as the original leaves it.
 */
import { projectPaths } from '../project.js';
import type { ExpandRef } from './parse-selection.js';

type Doc = Record<string, unknown>;

/**
 * Records of `object` by `_id`, presented as the caller reads them (their scopes and access
 * applied); ids the caller may not read are simply absent. The answered records become the
 * expansion's: each is placed as it is where it is first referenced (copied only for a second
 * reference), so a loader answers fresh objects, never ones it keeps.
 */
export type LoadReferenced = (object: string, ids: readonly string[]) => ReadonlyMap<string, Doc>;

interface Pending {
  holder: Doc;
  ref: ExpandRef;
}

/** Replaces the references `refs` names in `records` (in place) with the records they reference. */
export function expandReferences(records: readonly Doc[], refs: readonly ExpandRef[], load: LoadReferenced): void {
  let level: Pending[] = records.flatMap((holder) => refs.map((ref) => ({ holder, ref })));
  while (level.length > 0) {
    const wanted = new Map<string, Set<string>>();
    const targets: { pending: Pending; object: string; id: string }[] = [];
    for (const pending of level) {
      const reference = readAt(pending.holder, pending.ref.path);
      if (!isReference(reference)) continue;
      const object = pending.ref.object ?? (typeof reference.object === 'string' ? reference.object : undefined);
      if (!object) continue;
      targets.push({ pending, object, id: reference._id });
      let ids = wanted.get(object);
      if (!ids) wanted.set(object, (ids = new Set()));
      ids.add(reference._id);
    }
    const loaded = new Map<string, ReadonlyMap<string, Doc>>();
    for (const [object, ids] of wanted) loaded.set(object, load(object, [...ids]));
    const next: Pending[] = [];
    // A record referenced once on this level is placed as it is (a JSON copy of every expanded
    // record was a sixth of an expanding page's CPU); one referenced again is copied for each
    // place, since references inside it are then expanded in place.
    const uses = new Map<Doc, number>();
    for (const { object, id } of targets) {
      const record = loaded.get(object)?.get(id);
      if (record) uses.set(record, (uses.get(record) ?? 0) + 1);
    }
    for (const { pending, object, id } of targets) {
      const record = loaded.get(object)?.get(id);
      if (!record) continue;
      const copy = pending.ref.paths
        ? (projectPaths(record, pending.ref.paths) as Doc)
        : uses.get(record) === 1
          ? record
          : clone(record);
      writeAt(pending.holder, pending.ref.path, copy);
      for (const child of pending.ref.children) next.push({ holder: copy, ref: child });
    }
    level = next;
  }
}

/** A stored reference: an object with an `_id` (and, when it names its own, an `object`). */
export function isReference(value: unknown): value is { _id: string; object?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { _id?: unknown })._id === 'string';
}

function readAt(doc: Doc, path: string): unknown {
  let node: unknown = doc;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, segment))
      return undefined;
    node = (node as Doc)[segment];
  }
  return node;
}

function writeAt(doc: Doc, path: string, value: Doc): void {
  const segments = path.split('.');
  let node = doc;
  for (const segment of segments.slice(0, -1)) node = node[segment] as Doc;
  node[segments[segments.length - 1]!] = value;
}

function clone(doc: Doc): Doc {
  return JSON.parse(JSON.stringify(doc)) as Doc;
}
