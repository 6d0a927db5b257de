/**
 * Record forms generated from an object definition: which fields, their text in the form, and
 * the request body built back from it. Pure, so it is unit-tested.
 */
import type { FaultBody } from '../../../../src-shared/faults';
import type { PropertyDef } from '../../../../src-shared/schema/types';

export type FieldKind =
  'text' | 'enum' | 'number' | 'integer' | 'boolean' | 'date' | 'id' | 'reference' | 'lines' | 'json';

export interface FormField {
  /** Dotted path, e.g. `name.first`; also the key of its value and of its faults. */
  path: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  options?: string[];
  refObject?: string;
  /** The element type of a `lines` field (an array of scalars, one per line). */
  elementType?: string;
  /** Only sent when creating (e.g. an account's password). */
  createOnly?: boolean;
}

/** Text (or boolean) per field path; `''` means unset. */
export type FormValues = Record<string, string | boolean | null>;

export function formFields(properties: PropertyDef[], collection: string, prefix = ''): FormField[] {
  const out: FormField[] = [];
  for (const prop of properties) {
    if (prop.readOnly === true || prop.hidden === true || prop.type === 'List') continue;
    const path = prefix ? `${prefix}.${prop.name}` : prop.name;
    if (prop.type === 'Document' && prop.array !== true) {
      out.push(...formFields(prop.properties ?? [], collection, path));
      continue;
    }
    out.push({ path, label: prop.label ?? path, kind: kindOf(prop), required: prop.required === true, ...extra(prop) });
  }
  if (!prefix && collection === 'accounts') {
    out.push({ path: 'password', label: 'password', kind: 'text', required: true, createOnly: true });
  }
  return out;
}

function kindOf(prop: PropertyDef): FieldKind {
  if (prop.array === true) return prop.type === 'Document' || prop.type === 'Reference' ? 'json' : 'lines';
  switch (prop.type) {
    case 'String':
      return prop.enum ? 'enum' : 'text';
    case 'Number':
      return 'number';
    case 'Integer':
      return 'integer';
    case 'Boolean':
      return 'boolean';
    case 'Date':
      return 'date';
    case 'ObjectId':
      return 'id';
    case 'Reference':
      return prop.refObject ? 'reference' : 'json';
    default:
      return 'json';
  }
}

function extra(prop: PropertyDef): Partial<FormField> {
  const out: Partial<FormField> = {};
  if (prop.enum) out.options = prop.enum;
  if (prop.refObject) out.refObject = prop.refObject;
  if (prop.array === true) out.elementType = prop.type;
  return out;
}

function at(record: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), record);
}

/** The form's text for a stored record (or empty for a new one). */
export function initialValues(fields: FormField[], record: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = record ? at(record, field.path) : undefined;
    values[field.path] = toText(field, value);
  }
  return values;
}

function toText(field: FormField, value: unknown): string | boolean | null {
  if (value === undefined || value === null) return field.kind === 'boolean' ? null : '';
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'lines':
      return Array.isArray(value) ? value.map(String).join('\n') : String(value);
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'reference':
      return typeof value === 'object' && value !== null
        ? String((value as { _id?: unknown })._id ?? '')
        : String(value);
    default:
      return String(value);
  }
}

export interface BuiltBody {
  body: Record<string, unknown>;
  /** Problems the form finds before sending (the service validates again). */
  errors: Record<string, string>;
}

/**
 * The request body: for a new record every filled field; for an edit only changed fields, with
 * cleared ones sent as null (which unsets them).
 */
export function buildBody(fields: FormField[], values: FormValues, initial: FormValues | null): BuiltBody {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (field.createOnly && initial) continue;
    const text = values[field.path] ?? '';
    if (initial && text === (initial[field.path] ?? '')) continue;
    if (text === '' || text === null) {
      if (initial) setAt(body, field.path, null);
      continue;
    }
    const converted = fromText(field, text);
    if ('error' in converted) errors[field.path] = converted.error;
    else setAt(body, field.path, converted.value);
  }
  return { body, errors };
}

function fromText(field: FormField, text: string | boolean): { value: unknown } | { error: string } {
  if (typeof text === 'boolean') return { value: text };
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(n)) return { error: 'Enter a number.' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
      return { value: n };
    }
    case 'id':
      return /^[0-9a-f]{24}$/i.test(text.trim()) ? { value: text.trim() } : { error: 'An id is 24 hex characters.' };
    case 'reference':
      return /^[0-9a-f]{24}$/i.test(text.trim())
        ? { value: { _id: text.trim(), object: field.refObject } }
        : { error: 'An id is 24 hex characters.' };
    case 'date': {
      const date = new Date(/Z|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
      return Number.isNaN(date.getTime()) ? { error: 'Enter a date and time.' } : { value: date.toISOString() };
    }
    case 'lines': {
      const items = text
        .split('\n')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (field.elementType === 'Number' || field.elementType === 'Integer') {
        const numbers = items.map(Number);
        return numbers.some((n) => !Number.isFinite(n)) ? { error: 'One number per line.' } : { value: numbers };
      }
      if (field.elementType === 'Boolean') return { value: items.map((s) => s === 'true') };
      return { value: items };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'Not valid JSON.' };
      }
    default:
      return { value: text };
  }
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  keys.slice(0, -1).forEach((key) => {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  });
  node[keys[keys.length - 1] ?? path] = value;
}

/**
 * Splits a fault into messages per form field (by the fault paths the service names) and the
 * rest, which the form shows above the fields.
 */
export function faultsByField(
  fault: FaultBody,
  fields: FormField[],
): { byField: Record<string, string>; rest: FaultBody[] } {
  const byField: Record<string, string> = {};
  const rest: FaultBody[] = [];
  const leaves = fault.faults && fault.faults.length > 0 ? fault.faults : [fault];
  for (const leaf of leaves) {
    const field = leaf.path ? fieldFor(leaf.path, fields) : undefined;
    if (field) byField[field.path] = [byField[field.path], leaf.reason ?? leaf.message].filter(Boolean).join(' ');
    else rest.push(leaf);
  }
  return { byField, rest };
}

function fieldFor(path: string, fields: FormField[]): FormField | undefined {
  const normalized = path.replace(/\[\d+\]/g, '');
  return (
    fields.find((f) => f.path === normalized) ??
    fields.filter((f) => normalized.startsWith(`${f.path}.`)).sort((a, b) => b.path.length - a.path.length)[0]
  );
}
