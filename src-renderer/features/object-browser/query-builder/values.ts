/** Operand defaults and conversions for the builder's value editors. Pure, so unit-tested. */
import { normaliseIsoDate } from '../../../../src-shared/query/values';
import type { JsonValue } from './builder-state';
import { isListOperator, type FieldOperator, type QueryablePath } from './operators';

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

/** A fresh operand for `op` on `field`. */
export function defaultValue(
  field: Pick<QueryablePath, 'type' | 'container'> | undefined,
  op: FieldOperator,
): JsonValue {
  const type = field?.type ?? 'String';
  if (op === '$exists') return true;
  if (op === '$size') return 0;
  if (op === '$regex') return '';
  if (op === '$elemMatch') return field?.container ? {} : { $eq: scalarDefault(type) };
  if (isListOperator(op)) return [];
  return scalarDefault(type);
}

/** Keeps what the user typed when the operator changes, where the new operator can use it. */
export function adaptValue(
  field: Pick<QueryablePath, 'type' | 'container'> | undefined,
  from: FieldOperator,
  to: FieldOperator,
  value: JsonValue,
): JsonValue {
  const scalarOps = (op: FieldOperator) => !isListOperator(op) && !['$exists', '$size', '$elemMatch'].includes(op);
  if (scalarOps(from) && scalarOps(to) && (from === '$regex') === (to === '$regex')) return value;
  if (isListOperator(from) && isListOperator(to)) return value;
  if (scalarOps(from) && from !== '$regex' && isListOperator(to)) return value === '' ? [] : [value];
  if (isListOperator(from) && scalarOps(to) && to !== '$regex' && Array.isArray(value) && value.length > 0) {
    return value[0] ?? defaultValue(field, to);
  }
  return defaultValue(field, to);
}
