/**
 * Object definitions ("schemas"): the typed shape of every collection, shared by the service
 * (validation, storage, query compilation) and the console (forms, query builder).
 */

export const SCALAR_TYPES = ['String', 'Number', 'Integer', 'Boolean', 'Date', 'ObjectId'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** Reference: `{_id, object, path}`; Document: nested properties; List: a list property of other objects. */
export const PROPERTY_TYPES = [...SCALAR_TYPES, 'Reference', 'Document', 'List'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface PropertyDef {
  /** One path segment: letters, digits and `_`, starting with a letter or `_`. Custom: `c_` prefix. */
  name: string;
  type: PropertyType;
  label?: string;
  /** An array of `type` values (for Document: an array of sub-documents). */
  array?: boolean;
  /** May be matched and sorted in list queries. */
  indexed?: boolean;
  /** Indexed and unique within the collection (nulls excepted). */
  unique?: boolean;
  required?: boolean;
  /** Managed by the service; writes from callers are refused. */
  readOnly?: boolean;
  /** Never returned by reads (e.g. password hashes). */
  hidden?: boolean;
  /** Custom property (name starts with `c_`), added at run time. */
  custom?: boolean;
  /** Allowed values for String properties. */
  enum?: string[];
  /** Maximum length for String properties. */
  maxLength?: number;
  /**
   * A String property's value has this form (`uuid`: 8-4-4-4-12 hexadecimal digits). `aclEntry`:
   * a route acl entry, written as a string or as the original's `{type, target}`, stored as a
   * string (acl-entry.ts). Built-in properties only.
   */
  format?: 'uuid' | 'email' | 'aclEntry';
  /** Document: its nested properties. */
  properties?: PropertyDef[];
  /** Reference / List: the object type referenced or listed (e.g. `connection`). */
  refObject?: string;
}

export interface ObjectDef {
  /** Object type name, e.g. `account`, `c_patientfile`. */
  name: string;
  /** Collection name used in URLs, e.g. `accounts`, `c_patientfiles`. */
  collection: string;
  label: string;
  custom: boolean;
  properties: PropertyDef[];
  /**
   * Multi-property indexes (each a list of indexed scalar paths) for common multi-key sorts, e.g.
   * `[['name.last', 'name.first']]`: a page sorted by both keys is then an ordered index walk.
   */
  compoundIndexes?: string[][];
}

/** A property reachable by a fully qualified dotted path (e.g. `name.last`). */
export interface ResolvedProperty {
  /** Fully qualified path, e.g. `name.last` or `c_enrollments.c_course`. */
  path: string;
  def: PropertyDef;
  /** True when the value at this path is (or lies inside) an array. */
  inArray: boolean;
}

/** Pattern every property-path segment must match before it reaches storage or SQL. */
export const PATH_SEGMENT_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Custom names: `c_` followed by lower-case letters, digits and `_`. */
export const CUSTOM_NAME_PATTERN = /^c_[a-z0-9_]{1,60}$/;

/** The properties every object carries, managed by the service. */
export const SYSTEM_PROPERTIES: PropertyDef[] = [
  { name: '_id', type: 'ObjectId', indexed: true, unique: true, readOnly: true },
  { name: 'object', type: 'String', readOnly: true },
  { name: 'created', type: 'Date', indexed: true, readOnly: true },
  { name: 'updated', type: 'Date', indexed: true, readOnly: true },
  { name: 'updater', type: 'Reference', refObject: 'account', readOnly: true },
];

/** Every fully qualified property path of a definition, depth first, nested documents included. */
export function propertyPaths(def: ObjectDef): ResolvedProperty[] {
  const out: ResolvedProperty[] = [];
  const walk = (props: PropertyDef[], prefix: string, inArray: boolean): void => {
    for (const p of props) {
      const path = prefix ? `${prefix}.${p.name}` : p.name;
      const arr = inArray || p.array === true;
      out.push({ path, def: p, inArray: arr });
      if (p.type === 'Document' && p.properties) walk(p.properties, path, arr);
    }
  };
  walk(allProperties(def), '', false);
  return out;
}

/** System properties followed by the definition's own. */
export function allProperties(def: ObjectDef): PropertyDef[] {
  const own = new Set(def.properties.map((p) => p.name));
  return [...SYSTEM_PROPERTIES.filter((p) => !own.has(p.name)), ...def.properties];
}

/** Resolves a dotted path through the definition; undefined when any segment is unknown. */
export function resolvePath(def: ObjectDef, path: string): ResolvedProperty | undefined {
  const segments = path.split('.');
  if (segments.some((s) => !PATH_SEGMENT_PATTERN.test(s))) return undefined;
  let props = allProperties(def);
  let inArray = false;
  let found: PropertyDef | undefined;
  for (let i = 0; i < segments.length; i++) {
    found = props.find((p) => p.name === segments[i]);
    if (!found) return undefined;
    inArray = inArray || found.array === true;
    if (i < segments.length - 1) {
      if (found.type !== 'Document' || !found.properties) return undefined;
      props = found.properties;
    }
  }
  return found ? { path, def: found, inArray } : undefined;
}
