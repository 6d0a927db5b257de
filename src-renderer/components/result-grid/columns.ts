/** Which columns the result grid can show for a definition, and which it shows by default. */
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types';

export interface Column {
  path: string;
  /** Width in pixels; the grid virtualizes columns, so widths are fixed. */
  width: number;
  kind: 'id' | 'text' | 'number' | 'date' | 'boolean' | 'array' | 'reference' | 'document';
}

/**
 * Leaf columns: nested documents are opened into their properties (`name.first`), arrays of
 * documents stay one column, list properties are left to the record drawer.
 */
export function allColumns(def: ObjectDef): Column[] {
  const arraysOfDocuments: string[] = [];
  const out: Column[] = [];
  for (const { path, def: prop } of propertyPaths(def)) {
    if (prop.type === 'List' || prop.hidden === true) continue;
    if (arraysOfDocuments.some((parent) => path.startsWith(`${parent}.`))) continue;
    if (prop.type === 'Document' && prop.array !== true) continue;
    if (prop.type === 'Document') arraysOfDocuments.push(path);
    out.push({ path, ...columnLook(path, prop.type, prop.array === true) });
  }
  return out;
}

function columnLook(path: string, type: string, array: boolean): Pick<Column, 'width' | 'kind'> {
  if (path === '_id') return { kind: 'id', width: 220 };
  if (array) return { kind: 'array', width: 220 };
  switch (type) {
    case 'Date':
      return { kind: 'date', width: 170 };
    case 'Boolean':
      return { kind: 'boolean', width: 90 };
    case 'Number':
    case 'Integer':
      return { kind: 'number', width: 110 };
    case 'ObjectId':
      return { kind: 'id', width: 220 };
    case 'Reference':
      return { kind: 'reference', width: 220 };
    case 'Document':
      return { kind: 'document', width: 220 };
    default:
      return { kind: 'text', width: 180 };
  }
}

const SYSTEM = new Set(['_id', 'object', 'created', 'updated', 'updater']);
const DEFAULT_OWN_COLUMNS = 8;

/** `_id`, the first own properties and `created`: a readable default for any collection. */
export function defaultColumnPaths(columns: readonly Column[]): string[] {
  const own = columns.filter((c) => !SYSTEM.has(c.path)).slice(0, DEFAULT_OWN_COLUMNS);
  return ['_id', ...own.map((c) => c.path), ...(columns.some((c) => c.path === 'created') ? ['created'] : [])];
}

/** With `paths[]`, only columns the projection returns (`_id` always) are worth showing. */
export function columnsForProjection(columns: readonly Column[], paths: readonly string[]): Column[] {
  if (paths.length === 0) return [...columns];
  return columns.filter(
    (c) =>
      c.path === '_id' || paths.some((p) => c.path === p || c.path.startsWith(`${p}.`) || p.startsWith(`${c.path}.`)),
  );
}

/** The visible columns: `_id`, then own properties in definition order, then system properties. */
export function visibleColumns(available: readonly Column[], chosen: readonly string[] | undefined): Column[] {
  const wanted = chosen ?? defaultColumnPaths(available);
  const shown = available.filter((c) => wanted.includes(c.path));
  if (shown.length === 0) return available.slice(0, 1);
  // Identity first, own properties next, the service's bookkeeping (created, updater…) last.
  const rank = (c: Column) => (c.path === '_id' ? 0 : SYSTEM.has(c.path) ? 2 : 1);
  return shown.sort((a, b) => rank(a) - rank(b));
}
