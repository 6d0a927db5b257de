import { FaultError, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';
import { allProperties } from '../../../src-shared/schema/types.js';
import { isEmailAddress } from '../../../src-shared/schema/email-address.js';
import { routeAclEntry } from '../../../src-shared/schema/acl-entry.js';
import { OBJECT_ID_PATTERN } from './ids.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Doc = Record<string, Json>;

/** Canonical stored form of a date: ISO 8601 UTC with milliseconds (sorts as text). */
export function normaliseDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value))
    return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export interface ValidationResult {
  /** The values to store: known properties only, in canonical form; null means "unset". */
  values: Record<string, Json>;
  faults: FaultBody[];
}

const child = (detail: string, path: string, reason: string): FaultBody =>
  makeFault('validation', detail, { path, reason, message: reason });

/**
 * Trust boundary: checks a caller's record body against the object definition. Unknown, read-only
 * and mistyped properties each give one child fault (path + reason); nothing is stored unless the
 * list is empty. Only own, known property names are copied, so `__proto__` and friends never reach
 * an object's prototype.
 */
export function validateInput(def: ObjectDef, body: unknown, mode: 'create' | 'update'): ValidationResult {
  const faults: FaultBody[] = [];
  const values: Record<string, Json> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { values, faults: [child('invalidType', '', 'The request body must be a JSON object.')] };
  }
  validateLevel(allProperties(def), body as Record<string, unknown>, '', values, faults, mode === 'update');
  if (mode === 'create') {
    for (const p of def.properties) {
      // A value given but refused already has its fault: "required" would only contradict it.
      const refused = faults.some((f) => f.path === p.name);
      if (p.required && !refused && (values[p.name] === undefined || values[p.name] === null)) {
        faults.push(child('required', p.name, `${p.name} is required.`));
      }
    }
  }
  return { values, faults };
}

function validateLevel(
  props: PropertyDef[],
  body: Record<string, unknown>,
  prefix: string,
  out: Record<string, Json>,
  faults: FaultBody[],
  allowNull: boolean,
): void {
  for (const key of Object.keys(body)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const prop = props.find((p) => p.name === key);
    if (!prop) {
      faults.push(child('unknownProperty', path, `${path} is not a property of this object.`));
      continue;
    }
    if (prop.readOnly || prop.type === 'List') {
      faults.push(child('readOnly', path, `${path} is read-only.`));
      continue;
    }
    const value = body[key];
    if (value === null || value === undefined) {
      if (allowNull) out[key] = null;
      continue;
    }
    if (prop.array) {
      if (!Array.isArray(value)) {
        faults.push(child('invalidType', path, `${path} must be an array.`));
        continue;
      }
      const items: Json[] = [];
      value.forEach((item, i) => {
        const v = coerceValue(prop, item, `${path}[${i}]`, faults);
        if (v !== undefined) items.push(v);
      });
      out[key] = items;
      continue;
    }
    const v = coerceValue(prop, value, path, faults);
    if (v !== undefined) out[key] = v;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function coerceValue(prop: PropertyDef, value: unknown, path: string, faults: FaultBody[]): Json | undefined {
  const bad = (what: string): undefined => {
    faults.push(child('invalidType', path, `${path} must be ${what}.`));
    return undefined;
  };
  switch (prop.type) {
    case 'String': {
      if (prop.format === 'aclEntry' && typeof value === 'object' && value !== null) {
        try {
          return routeAclEntry(value, path);
        } catch (e) {
          if (!(e instanceof FaultError)) throw e;
          faults.push(child('format', path, e.fault.reason ?? `${path} is not an acl entry.`));
          return undefined;
        }
      }
      if (typeof value !== 'string') return bad('a string');
      if (value.includes('\u0000')) return bad('a string without NUL characters');
      if (prop.maxLength !== undefined && value.length > prop.maxLength) {
        faults.push(child('maxLength', path, `${path} must be at most ${prop.maxLength} characters.`));
        return undefined;
      }
      if (prop.enum && !prop.enum.includes(value)) {
        faults.push(child('enum', path, `${path} must be one of ${prop.enum.join(', ')}.`));
        return undefined;
      }
      if (prop.format === 'uuid' && !UUID_PATTERN.test(value)) {
        faults.push(child('format', path, `${path} must be a UUID (8-4-4-4-12 hexadecimal digits).`));
        return undefined;
      }
      if (prop.format === 'email' && !isEmailAddress(value)) {
        const reason = `${path} must be an email address such as name@example.com (one @, a domain after it, no spaces).`;
        faults.push(child('format', path, reason));
        return undefined;
      }
      return value;
    }
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value) ? value : bad('a finite number');
    case 'Integer':
      return Number.isSafeInteger(value) ? (value as number) : bad('an integer');
    case 'Boolean':
      return typeof value === 'boolean' ? value : bad('true or false');
    case 'Date':
      return normaliseDate(value) ?? bad('an ISO 8601 date');
    case 'ObjectId':
      return typeof value === 'string' && OBJECT_ID_PATTERN.test(value.toLowerCase())
        ? value.toLowerCase()
        : bad('a 24-character hexadecimal id');
    case 'Reference': {
      const id = typeof value === 'string' ? value : (value as { _id?: unknown })?._id;
      const object = typeof value === 'object' ? (value as { object?: unknown }).object : prop.refObject;
      if (typeof id !== 'string' || !OBJECT_ID_PATTERN.test(id.toLowerCase()))
        return bad('a reference ({_id, object})');
      const type = typeof object === 'string' && /^[a-z][a-z0-9_]*$/.test(object) ? object : prop.refObject;
      if (!type) return bad('a reference with an object type');
      return { _id: id.toLowerCase(), object: type, path: `/${type}s/${id.toLowerCase()}` };
    }
    case 'Document': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('an object');
      const nested: Record<string, Json> = {};
      validateLevel(prop.properties ?? [], value as Record<string, unknown>, path, nested, faults, false);
      return nested;
    }
    case 'List':
      return bad('written through its own collection');
  }
}
