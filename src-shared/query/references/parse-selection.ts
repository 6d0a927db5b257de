/**
 * Property selection with references, as the original reads it (docs/query-semantics.md,
 * "References"): `paths[]` limits what a record shows and, through a reference
 * (`owner.name.first`), expands it implicitly; `expand[]` expands a reference whole, inside
 * expanded ones too (`c_father.c_child`); `include[]` adds optional members (list properties).
 *
 * TRUST BOUNDARY: the three arguments are untrusted; every path resolves through the definitions
 * (the referenced objects' too) and expansions are bounded in depth and number.
 */
import { fault } from '../../faults.js';
import { allProperties, PATH_SEGMENT_PATTERN, type ObjectDef, type PropertyDef } from '../../schema/types.js';
import { indexPath, queryFault } from '../faults.js';
import { MAX_EXPANSION_DEPTH, MAX_EXPANSION_PATHS, MAX_PROJECTION_PATHS } from '../limits.js';

export interface ExpandRef {
  /** The reference's path in the record (through documents): `c_father`, `owner`, `c_info.c_ref`. */
  path: string;
  /** The referenced object; undefined when each reference names its own (`connection.context`). */
  object?: string;
  /** What of the referenced record to show; undefined for all of it. */
  paths?: string[];
  /** References to expand inside the referenced record. */
  children: ExpandRef[];
}

export interface Selection {
  /** The record's own projection (references crossed by `paths[]` kept whole, to be expanded). */
  paths?: string[];
  expand: ExpandRef[];
  /** Optional members asked for: list properties. */
  include: string[];
}

export interface SelectionArgs {
  paths?: readonly string[];
  expand?: readonly string[];
  include?: readonly string[];
}

export type DefOf = (objectName: string) => ObjectDef | undefined;

/** Members every record carries besides its properties (parse.ts PRESENTED_MEMBERS). */
const PRESENTED = new Set(['access', 'accessLevel']);
/** The creator, stored as a reference to an account on every record. */
const OWNER: PropertyDef = { name: 'owner', type: 'Reference', refObject: 'account' };
/** Members of a bare reference: reading them does not expand it. */
const REFERENCE_MEMBERS = new Set(['_id', 'object', 'path']);

interface Node {
  ref: PropertyDef;
  path: string;
  whole: boolean;
  subPaths: string[];
  expandPaths: string[];
  depth: number;
}

export function parseSelection(args: SelectionArgs, def: ObjectDef, defOf: DefOf): Selection {
  for (const [name, list, max] of [
    ['paths', args.paths, MAX_PROJECTION_PATHS],
    ['expand', args.expand, MAX_EXPANSION_PATHS],
    ['include', args.include, MAX_EXPANSION_PATHS],
  ] as const) {
    if (list && list.length > max) throw queryFault(`${name}[] may name at most ${max} paths.`, name);
  }
  return selectionOf(args, def, defOf, 1, '');
}

function selectionOf(args: SelectionArgs, def: ObjectDef, defOf: DefOf, depth: number, prefix: string): Selection {
  const nodes = new Map<string, Node>();
  const node = (ref: PropertyDef, path: string, faultPath: string): Node => {
    if (depth > MAX_EXPANSION_DEPTH) {
      throw queryFault(`References expand at most ${MAX_EXPANSION_DEPTH} deep.`, faultPath);
    }
    let n = nodes.get(path);
    if (!n) nodes.set(path, (n = { ref, path, whole: false, subPaths: [], expandPaths: [], depth }));
    return n;
  };
  const paths: string[] = [];
  args.paths?.forEach((p, i) => {
    const faultPath = indexPath('paths', i);
    if (PRESENTED.has(p)) return void paths.push(p);
    const at = splitAtReference(def, p, faultPath, prefix);
    if (!at || at.rest === '' || REFERENCE_MEMBERS.has(at.rest)) return void paths.push(p);
    const n = node(at.ref, at.path, faultPath);
    n.subPaths.push(at.rest);
    paths.push(at.path);
  });
  args.expand?.forEach((p, i) => {
    const faultPath = indexPath('expand', i);
    const at = splitAtReference(def, p, faultPath, prefix);
    if (!at) {
      throw fault('invalidArgument', 'illegalExpansion', {
        path: faultPath,
        reason: `Expansion not allowed for path: ${prefix}${p} (not a reference).`,
      });
    }
    const n = node(at.ref, at.path, faultPath);
    if (at.rest === '') n.whole = true;
    else n.expandPaths.push(at.rest);
  });
  const include = (args.include ?? []).map((name, i) => checkInclude(def, name, indexPath('include', i)));
  const named = args.paths ? new Set(paths) : undefined;
  const expand: ExpandRef[] = [];
  for (const n of nodes.values()) {
    // With paths[], a reference shows only when named (whole or through its members).
    if (named && !named.has(n.path)) continue;
    const whole = !args.paths || args.paths.includes(n.path) || (n.subPaths.length === 0 && n.whole);
    expand.push(expandRef(n, whole, defOf, `${prefix}${n.path}.`));
  }
  const out: Selection = { expand, include };
  if (args.paths) out.paths = [...new Set(paths)];
  return out;
}

function expandRef(n: Node, whole: boolean, defOf: DefOf, prefix: string): ExpandRef {
  const object = n.ref.refObject || undefined;
  const inner = [...n.subPaths, ...n.expandPaths];
  if (!object) {
    if (inner.length > 0) {
      throw fault('invalidArgument', 'illegalExpansion', {
        path: prefix.slice(0, -1),
        reason: `${prefix.slice(0, -1)} names its object per record, so only the whole reference expands.`,
      });
    }
    return { path: n.path, children: [] };
  }
  const target = defOf(object);
  if (!target) throw queryFault(`There is no object named ${object}.`, prefix.slice(0, -1));
  const sub = selectionOf(
    { ...(whole ? {} : { paths: n.subPaths }), expand: n.expandPaths },
    target,
    defOf,
    n.depth + 1,
    prefix,
  );
  return { path: n.path, object, ...(sub.paths ? { paths: sub.paths } : {}), children: sub.expand };
}

/**
 * The first reference a path crosses: its path, definition and the rest of the path inside the
 * referenced record; undefined when the path is a plain property. Unknown paths are faults.
 */
function splitAtReference(
  def: ObjectDef,
  path: string,
  faultPath: string,
  prefix: string,
): { path: string; ref: PropertyDef; rest: string } | undefined {
  const segments = path.split('.');
  if (segments.some((s) => !PATH_SEGMENT_PATTERN.test(s))) {
    throw queryFault(`"${prefix}${path}" is not a valid property path.`, faultPath);
  }
  let props: PropertyDef[] = [...allProperties(def), OWNER];
  for (let i = 0; i < segments.length; i++) {
    const found = props.find((p) => p.name === segments[i]);
    if (!found || found.hidden) throw queryFault(`Unknown property "${prefix}${path}".`, faultPath);
    if (found.type === 'Reference') {
      if (segments.slice(0, i).some((_, j) => isArrayAt(def, segments.slice(0, j + 1)))) {
        throw fault('invalidArgument', 'illegalExpansion', {
          path: faultPath,
          reason: `${prefix}${path}: references inside arrays can't be expanded.`,
        });
      }
      return { path: segments.slice(0, i + 1).join('.'), ref: found, rest: segments.slice(i + 1).join('.') };
    }
    if (i < segments.length - 1) {
      if (found.type !== 'Document' || !found.properties) {
        throw queryFault(`Unknown property "${prefix}${path}".`, faultPath);
      }
      props = found.properties;
    }
  }
  return undefined;
}

function isArrayAt(def: ObjectDef, segments: string[]): boolean {
  let props = allProperties(def);
  let found: PropertyDef | undefined;
  for (const s of segments) {
    found = props.find((p) => p.name === s);
    props = found?.properties ?? [];
  }
  return found?.array === true;
}

/** `include[]`: a list property (an optional member), or any property (already shown: no change). */
function checkInclude(def: ObjectDef, name: string, faultPath: string): string {
  const at = splitAtReference(def, name, faultPath, '');
  if (at && at.rest !== '') throw queryFault(`include[] names properties of the record itself.`, faultPath);
  return name;
}
