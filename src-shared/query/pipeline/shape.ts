/**
 * The schema of the documents flowing between pipeline stages, written as property definitions so
 * the where language (`$match`) and the field resolver work on any stage unchanged. The first
 * stage reads the object's readable properties; every reshaping stage declares its output.
 */
import { allProperties, type ObjectDef, type PropertyDef } from '../../schema/types.js';
import { propertyAccess, type AllowedProperties } from '../../scopes/property-path.js';
import type { ValueType } from './ast.js';

/**
 * The properties a pipeline may read on the stored records: the definition's, less hidden ones,
 * list properties (read through their own arguments) and `object` (not stored; every output
 * document carries it anyway), pruned to what the caller's scopes allow.
 */
export function recordProperties(def: ObjectDef, allowed: AllowedProperties): PropertyDef[] {
  const props = allProperties(def).filter((p) => !p.hidden && p.type !== 'List' && p.name !== 'object');
  return prune(props, '', allowed);
}

function prune(props: PropertyDef[], prefix: string, allowed: AllowedProperties): PropertyDef[] {
  if (allowed === 'all') return props;
  const out: PropertyDef[] = [];
  for (const p of props) {
    const path = prefix + p.name;
    const access = p.name === '_id' && prefix === '' ? 'full' : propertyAccess(allowed, path);
    if (access === 'full') out.push(p);
    // Part of a document: its readable members. Part of an array of documents is left out whole.
    else if (access === 'partial' && p.type === 'Document' && !p.array && p.properties) {
      out.push({ ...p, properties: prune(p.properties, `${path}.`, allowed) });
    }
  }
  return out;
}

/** A stage's output is matched and sorted without index rules: every member counts as indexed. */
export function asStageOutput(props: PropertyDef[]): PropertyDef[] {
  return props.map((p) => ({
    ...p,
    indexed: true,
    ...(p.properties ? { properties: asStageOutput(p.properties) } : {}),
  }));
}

/** The property a computed value becomes in a stage's output. Always-null values read as String. */
export function propertyOf(name: string, type: ValueType): PropertyDef {
  return {
    name,
    type: type.type === 'Null' || type.type === 'Any' ? 'String' : type.type,
    indexed: true,
    ...(type.array ? { array: true } : {}),
    ...(type.properties ? { properties: asStageOutput(type.properties) } : {}),
  };
}

/** The type of a property's whole value. */
export function typeOfProperty(def: PropertyDef): ValueType {
  return {
    type: def.type,
    ...(def.array ? { array: true } : {}),
    ...(def.properties ? { properties: def.properties } : {}),
  };
}

/** A JSON value (document, array, whole reference) rather than one scalar. */
export function isJsonType(type: ValueType): boolean {
  return type.array === true || type.type === 'Document' || type.type === 'Reference';
}

/** Numbers of either property type. */
export function isNumeric(type: ValueType): boolean {
  return !type.array && (type.type === 'Number' || type.type === 'Integer');
}

/** Values that compare with each other: same class (numbers together), or null. */
export function comparable(a: ValueType, b: ValueType): boolean {
  // Known only when evaluated: compared as the evaluator compares (evaluator-only expressions).
  if (a.type === 'Any' || b.type === 'Any') return true;
  if (a.type === 'Null' || b.type === 'Null') return !isJsonType(a) && !isJsonType(b);
  if (isJsonType(a) || isJsonType(b)) return false;
  return typeClass(a) === typeClass(b);
}

export function typeClass(type: ValueType): string {
  return type.type === 'Integer' ? 'Number' : type.type;
}

/** The type of a value that may be either of two (`$cond`, `$ifNull`); undefined when they differ. */
export function unionType(a: ValueType, b: ValueType): ValueType | undefined {
  if (a.type === 'Any' || b.type === 'Any') return { type: 'Any' };
  if (a.type === 'Null') return b;
  if (b.type === 'Null') return a;
  if (isJsonType(a) || isJsonType(b)) {
    return a.type === b.type && !!a.array === !!b.array && a.type !== 'Document' ? a : undefined;
  }
  if (typeClass(a) !== typeClass(b)) return undefined;
  return a.type === b.type ? a : { type: 'Number' };
}
