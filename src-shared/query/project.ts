/** `paths[]` projection: keeps the named properties plus `_id` and `object` (docs/query-semantics.md). */

type PathTree = Map<string, PathTree | true>;

const ALWAYS_KEPT = ['_id', 'object'];

function buildTree(paths: readonly string[]): PathTree {
  const root: PathTree = new Map();
  for (const path of [...ALWAYS_KEPT, ...paths]) {
    const segments = path.split('.');
    let node = root;
    for (const [i, segment] of segments.entries()) {
      const existing = node.get(segment);
      if (existing === true) break; // a shorter path already keeps the whole value
      if (i === segments.length - 1) {
        node.set(segment, true);
        break;
      }
      const child: PathTree = existing ?? new Map();
      node.set(segment, child);
      node = child;
    }
  }
  return root;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function applyTree(value: unknown, tree: PathTree): unknown {
  // A path into an array of documents keeps that property of each element.
  if (Array.isArray(value)) return value.filter(isPlainObject).map((el) => applyTree(el, tree));
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, node] of tree) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const child = value[key];
    if (node === true) {
      out[key] = child;
    } else {
      const projected = applyTree(child, node);
      if (projected !== undefined) out[key] = projected;
    }
  }
  return out;
}

/** Returns a new object holding only `paths` (validated by `parsePaths`) and `_id`, `object`. */
export function projectPaths<T extends Record<string, unknown>>(doc: T, paths: readonly string[]): Partial<T> {
  return applyTree(doc, buildTree(paths)) as Partial<T>;
}
