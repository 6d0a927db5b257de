/** Operand defaults and conversions for the builder's value editors. Pure, so unit-tested. */
import { normaliseIsoDate } from '../../../../src-shared/query/values';
import type { JsonValue } from './builder-state';
import { isPrefixOperator, prefixOf, prefixRegex, type PrefixOperator } from './starts-with';
import { isListOperator, type BuilderOperator, type QueryablePath } from './operators';

/**
 * `2024-05-01T12:00:00` in the picker ⇄ `2024-05-01T12:00:00.000Z`: dates are UTC, like stored
 * values. Milliseconds show only when there are some, so the picker never rounds a value away.
 */
export function isoToPicker(value: JsonValue): string {
  if (typeof value !== 'string') return '';
  const stored = normaliseIsoDate(value);
  if (stored === undefined) return '';
  return stored.endsWith('.000Z') ? stored.slice(0, 19) : stored.slice(0, 23);
}

export function pickerToIso(text: string): string {
  if (text === '') return '';
  const date = new Date(`${text.length === 16 ? `${text}:00` : text}Z`);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** A date condition written as a day (`2024-05-01`, midnight UTC) or as an instant. */
export type DateMode = 'datetime' | 'date';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A day written as a day opens as one; anything else as date and time. */
export function dateModeOf(value: JsonValue): DateMode {
  return typeof value === 'string' && DATE_ONLY.test(value) ? 'date' : 'datetime';
}

/** The picker's text for the value: `2024-05-01` for a date field, `2024-05-01T12:00:00` otherwise. */
export function dateInputText(value: JsonValue, mode: DateMode): string {
  if (mode === 'datetime') return isoToPicker(value);
  return typeof value === 'string' ? (normaliseIsoDate(value)?.slice(0, 10) ?? '') : '';
}

/** The operand for the picker's text: the day as written, or the instant as stored ISO. */
export function dateValueOf(text: string, mode: DateMode): string {
  return mode === 'date' ? text : pickerToIso(text);
}

function scalarDefault(type: string): JsonValue {
  switch (type) {
    case 'Boolean':
      return true;
    case 'Number':
    case 'Integer':
      return 0;
    case 'Date':
      return `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
    default:
      return '';
  }
}

/** A new item of an `$in`/`$nin`/`$all` list: a value the check accepts (a date is today). */
export function listItemDefault(type: string): JsonValue {
  return scalarDefault(type);
}

/**
 * The property a new condition starts on: the first one whose fresh operand is already a valid
 * query (an id has no such value: `""` is not an id), so a new condition starts without an error.
 */
export function firstConditionField<T extends Pick<QueryablePath, 'type' | 'container'>>(
  fields: readonly T[],
): T | undefined {
  return fields.find((f) => !f.container && f.type !== 'ObjectId' && f.type !== 'Reference') ?? fields[0];
}

/** A fresh operand for `op` on `field`. */
export function defaultValue(
  field: Pick<QueryablePath, 'type' | 'container'> | undefined,
  op: BuilderOperator,
): JsonValue {
  const type = field?.type ?? 'String';
  if (op === '$exists') return true;
  if (op === '$size') return 0;
  if (op === '$regex' || isPrefixOperator(op)) return '';
  if (op === '$elemMatch') return field?.container ? {} : { $eq: scalarDefault(type) };
  if (isListOperator(op)) return [];
  return scalarDefault(type);
}

/** Keeps what the user typed when the operator changes, where the new operator can use it. */
export function adaptValue(
  field: Pick<QueryablePath, 'type' | 'container'> | undefined,
  from: BuilderOperator,
  to: BuilderOperator,
  value: JsonValue,
): JsonValue {
  const prefix = (op: BuilderOperator) => isPrefixOperator(op);
  const scalarOps = (op: BuilderOperator) =>
    !isListOperator(op) && !prefix(op) && !['$exists', '$size', '$elemMatch', '$regex'].includes(op);
  const text = typeof value === 'string' ? value : '';
  if (scalarOps(from) && scalarOps(to)) return value;
  if (from === '$regex' && to === '$regex') return value;
  if (prefix(from) && prefix(to)) return value;
  // "starts with" ⇄ regex: the same pattern, written out or read back when it is a plain prefix.
  if (prefix(from) && to === '$regex') return prefixRegex(text, from as PrefixOperator);
  if (from === '$regex' && prefix(to)) return prefixOf(value)?.text ?? '';
  // Typed text carries over between equals and "starts with".
  if ((prefix(from) && scalarOps(to)) || (scalarOps(from) && prefix(to))) return text;
  if (isListOperator(from) && isListOperator(to)) return value;
  if (scalarOps(from) && isListOperator(to)) return value === '' ? [] : [value];
  if (isListOperator(from) && scalarOps(to) && Array.isArray(value) && value.length > 0) {
    return value[0] ?? defaultValue(field, to);
  }
  return defaultValue(field, to);
}
