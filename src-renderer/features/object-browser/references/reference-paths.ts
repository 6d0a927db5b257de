/**
 * Paths into references (issue 42): `paths[]=owner.name.first` makes the service expand `owner`
 * and keep only that member of the account it points to. Browse's paths picker offers them, the
 * grid shows them as columns, and the drawer asks for every reference expanded (`expand[]`).
 * Pure, so unit-tested. One level deep: the referenced object's own properties, not its references'.
 */
import { propertyPaths, resolvePath, type ObjectDef, type PropertyDef } from '../../../../src-shared/schema/types';
import type { Column } from '../../../components/result-grid/columns';

/** Who created the record: the service keeps it on every record but accounts, undeclared. */
export const OWNER: PropertyDef = { name: 'owner', type: 'Reference', refObject: 'account', readOnly: true };

/** A definition's properties with `owner` where the service keeps one (the schema leaves it out). */
export function withOwner(def: ObjectDef): ObjectDef {
  if (def.name === 'account' || def.properties.some((p) => p.name === OWNER.name)) return def;
  return { ...def, properties: [...def.properties, OWNER] };
}

/** References the service can expand: Reference properties (and `owner`) not inside an array. */
export function expandableReferences(def: ObjectDef): { path: string; refObject: string | undefined }[] {
  return propertyPaths(withOwner(def))
    .filter(({ def: p, inArray }) => p.type === 'Reference' && !inArray && p.hidden !== true)
    .map(({ path, def: p }) => ({ path, refObject: p.refObject }));
}

/** `owner.name.first`, …: each member of each referenced object, under the reference's path. */
export function referencePaths(def: ObjectDef, defs: readonly ObjectDef[]): string[] {
  const out: string[] = [];
  for (const reference of expandableReferences(def)) {
    const target = defs.find((d) => d.name === reference.refObject);
    if (!target) continue;
    for (const { path, def: p } of propertyPaths(target)) {
      if (p.hidden === true || p.type === 'List' || path === '_id' || path === 'object') continue;
      out.push(`${reference.path}.${path}`);
    }
  }
  return out;
}

const KIND: Readonly<Record<string, Column['kind']>> = {
  Date: 'date',
  Boolean: 'boolean',
  Number: 'number',
  Integer: 'number',
  ObjectId: 'id',
  Reference: 'reference',
  Document: 'document',
};

/**
 * The grid's columns for a projection that reaches into references: each such path becomes a
 * column typed by the referenced object's definition, in place of the reference's own column
 * (which would hold the expanded record as a blob).
 */
export function withReferenceColumns(
  columns: readonly Column[],
  paths: readonly string[],
  def: ObjectDef,
  defs: readonly ObjectDef[],
): Column[] {
  const added = new Map<string, Column[]>();
  for (const reference of expandableReferences(def)) {
    const target = defs.find((d) => d.name === reference.refObject);
    const inside = paths.filter((p) => p.startsWith(`${reference.path}.`));
    if (!target || inside.length === 0) continue;
    added.set(
      reference.path,
      inside.map((path) => {
        const prop = resolvePath(target, path.slice(reference.path.length + 1))?.def;
        const array = prop?.array === true;
        const kind = array ? 'array' : (KIND[prop?.type ?? ''] ?? 'text');
        return { path, kind, width: kind === 'number' ? 110 : kind === 'boolean' ? 90 : 180 };
      }),
    );
  }
  if (added.size === 0) return [...columns];
  const out: Column[] = [];
  for (const column of columns) {
    const replacement = added.get(column.path);
    // The reference stays a column of its own only when paths[] names it whole too.
    if (!replacement || paths.includes(column.path)) out.push(column);
    if (replacement) out.push(...replacement);
  }
  // A reference with no column of its own (`owner`, undeclared) puts its paths at the end.
  for (const [path, replacement] of added) {
    if (!columns.some((column) => column.path === path)) out.push(...replacement);
  }
  return out;
}
