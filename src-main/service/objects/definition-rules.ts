import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import {
  CUSTOM_NAME_PATTERN,
  PATH_SEGMENT_PATTERN,
  PROPERTY_TYPES,
  SYSTEM_PROPERTIES,
  type ObjectDef,
  type PropertyDef,
} from '../../../src-shared/schema/types.js';

export const MAX_PROPERTIES = 200;
const MAX_DEPTH = 4;

/** Properties at every depth: a Document counts once, and so does each of its own properties. */
export function countProperties(properties: readonly PropertyDef[]): number {
  return properties.reduce((n, p) => n + 1 + countProperties(p.properties ?? []), 0);
}

/**
 * Refuses a definition of more than MAX_PROPERTIES properties. Nested ones count too: every indexed
 * scalar at any depth becomes a column of the collection's table, and SQLite refuses a table of more
 * than 2000 columns (a 500, not a fault). `before` is the count of the definition being replaced,
 * so one past the cap (saved before the cap held at creation and import) can be saved unchanged.
 */
export function checkPropertyCount(properties: readonly PropertyDef[], before = 0): void {
  const n = countProperties(properties);
  if (n > MAX_PROPERTIES && n > before) throw tooManyProperties();
}

function tooManyProperties() {
  return fault('validation', 'definition', {
    path: 'properties',
    reason: `An object has at most ${MAX_PROPERTIES} properties (nested ones included).`,
  });
}

/**
 * Trust boundary: checks a property definition sent by an administrator. Custom names carry the
 * `c_` prefix; nested documents are checked recursively; only known keys are copied.
 */
export function checkPropertyDef(
  input: unknown,
  path: string,
  depth = 0,
  faults: FaultBody[] = [],
): PropertyDef | undefined {
  const bad = (reason: string) => {
    faults.push(makeFault('validation', 'definition', { path, reason }));
    return undefined;
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return bad('A property must be an object.');
  const p = input as Record<string, unknown>;
  if (typeof p.name !== 'string' || !CUSTOM_NAME_PATTERN.test(p.name)) {
    return bad('Custom property names start with c_ followed by lower-case letters, digits or _.');
  }
  if (typeof p.type !== 'string' || !(PROPERTY_TYPES as readonly string[]).includes(p.type)) {
    return bad(`type must be one of ${PROPERTY_TYPES.join(', ')}.`);
  }
  const out: PropertyDef = { name: p.name, type: p.type as PropertyDef['type'], custom: true };
  for (const flag of ['array', 'indexed', 'unique', 'required'] as const) {
    if (p[flag] !== undefined) {
      if (typeof p[flag] !== 'boolean') return bad(`${flag} must be true or false.`);
      out[flag] = p[flag];
    }
  }
  if (out.unique) out.indexed = true;
  if (typeof p.label === 'string') out.label = p.label.slice(0, 200);
  if (p.maxLength !== undefined) {
    if (!Number.isInteger(p.maxLength) || (p.maxLength as number) < 1)
      return bad('maxLength must be a positive integer.');
    out.maxLength = p.maxLength as number;
  }
  if (p.enum !== undefined) {
    if (!Array.isArray(p.enum) || !p.enum.every((e) => typeof e === 'string'))
      return bad('enum must be a list of strings.');
    out.enum = p.enum as string[];
  }
  if ((out.indexed || out.unique) && !canBeIndexed(out.type)) {
    return bad(`${out.type} properties cannot be indexed; index their scalar properties instead.`);
  }
  if (out.type === 'Reference' || out.type === 'List') {
    if (typeof p.refObject !== 'string' || !PATH_SEGMENT_PATTERN.test(p.refObject))
      return bad('refObject names the referenced object.');
    out.refObject = p.refObject;
  }
  if (out.type === 'Document') {
    if (depth >= MAX_DEPTH) return bad(`Documents nest at most ${MAX_DEPTH} levels.`);
    if (!Array.isArray(p.properties) || p.properties.length === 0) return bad('A Document needs its properties.');
    const nested = p.properties.map((n, i) => checkPropertyDef(n, `${path}.properties[${i}]`, depth + 1, faults));
    if (nested.some((n) => !n)) return undefined;
    out.properties = nested as PropertyDef[];
  }
  return out;
}

export function addProperty(def: ObjectDef, prop: PropertyDef): ObjectDef {
  const taken = new Set([...SYSTEM_PROPERTIES, ...def.properties].map((p) => p.name));
  if (taken.has(prop.name))
    throw fault('exists', 'property', { path: prop.name, reason: `${def.name} already has ${prop.name}.` });
  if (countProperties(def.properties) + countProperties([prop]) > MAX_PROPERTIES) {
    throw fault('invalidArgument', 'definition', { reason: `An object has at most ${MAX_PROPERTIES} properties.` });
  }
  if (prop.required) {
    throw fault('invalidArgument', 'definition', {
      path: prop.name,
      reason: 'A property added to an existing object cannot be required (existing records lack it).',
    });
  }
  return { ...def, properties: [...def.properties, prop] };
}

export function checkNewObject(input: unknown): ObjectDef {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof body.name !== 'string' || !CUSTOM_NAME_PATTERN.test(body.name) || body.name.endsWith('s')) {
    throw fault('validation', 'definition', {
      path: 'name',
      reason:
        'Custom object names start with c_, use lower-case letters, digits or _, and are singular (no trailing s).',
    });
  }
  if (body.properties !== undefined && !Array.isArray(body.properties)) {
    // Was read as "no properties", so {"properties":{…}} created an empty object definition.
    throw fault('validation', 'definition', { path: 'properties', reason: 'properties must be an array.' });
  }
  const props = Array.isArray(body.properties) ? body.properties : [];
  // Before checking each one: the top level alone can be past the cap.
  if (props.length > MAX_PROPERTIES) throw tooManyProperties();
  const faults: FaultBody[] = [];
  const properties = props.map((p, i) => checkPropertyDef(p, `properties[${i}]`, 0, faults));
  if (faults.length > 0) throw fault('validation', undefined, { faults, reason: 'The definition is not valid.' });
  assertNamesOnce(properties as PropertyDef[]);
  checkPropertyCount(properties as PropertyDef[]);
  return {
    name: body.name,
    collection: `${body.name}s`,
    label: typeof body.label === 'string' ? body.label.slice(0, 200) : body.name,
    custom: true,
    properties: properties as PropertyDef[],
  };
}

/** Documents and lists hold no single value: their scalar properties are indexed, never they. */
export function canBeIndexed(type: PropertyDef['type']): boolean {
  return type !== 'Document' && type !== 'List';
}

/** Refuses a list of properties that names one twice. */
export function assertNamesOnce(properties: readonly PropertyDef[]): void {
  const names = properties.map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw fault('validation', 'definition', { path: dup, reason: `${dup} is defined twice.` });
}

/**
 * A change to an existing property, by `PATCH /schemas` or an environment import: only custom
 * properties change (built-in ones are the service's); a Document or List is never indexed; the
 * type and arrayness stay, since records hold values of the stored type, which a new type would
 * leave unreadable by the query language (add a new property instead).
 */
export function checkPropertyChange(before: PropertyDef, after: PropertyDef): void {
  const path = before.name;
  if (!before.custom)
    throw fault('accessDenied', 'property', { path, reason: 'Built-in properties cannot be altered.' });
  if ((after.indexed || after.unique) && !canBeIndexed(after.type)) {
    throw fault('validation', 'definition', { path, reason: `${after.type} properties cannot be indexed.` });
  }
  if (before.type !== after.type || Boolean(before.array) !== Boolean(after.array)) {
    const shape = (q: PropertyDef) => `${q.type}${q.array ? '[]' : ''}`;
    throw fault('validation', 'definition', {
      path,
      reason: `${path} is ${shape(before)} here and cannot become ${shape(after)}; add a new property instead.`,
    });
  }
}
