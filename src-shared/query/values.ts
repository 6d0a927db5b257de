/** Type-checks and normalises operand values against a property's type. */
import type { PropertyType } from '../schema/types.js';
import type { Scalar } from './ast.js';
import { exactMatchingFault, invalidObjectIdFault, queryFault } from './faults.js';

const OBJECT_ID_PATTERN = /^[0-9a-fA-F]{24}$/;
const ISO_DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Normalises an ISO 8601 date or date-time (with zone) to the stored `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function normaliseIsoDate(text: string): string | undefined {
  const m = ISO_DATE_PATTERN.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0–99 literal
  utc.setUTCHours(hour, minute, second, ms);
  if (utc.getUTCDate() !== day) return undefined; // e.g. February 30th rolled over
  let time = utc.getTime();
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return undefined;
    time -= sign * (zh * 60 + zm) * 60_000;
  }
  const iso = new Date(time).toISOString();
  // Outside years 0000–9999 toISOString switches to ±YYYYYY, which would break text ordering.
  return /^\d{4}-/.test(iso) ? iso : undefined;
}

/** Normalises a 24-hex ObjectId to lower case; faults `invalidArgument.invalidObjectId`. */
export function normaliseObjectId(value: unknown, path: string): string {
  if (typeof value !== 'string' || !OBJECT_ID_PATTERN.test(value)) {
    throw invalidObjectIdFault('An ObjectId must be 24 hexadecimal characters.', path);
  }
  return value.toLowerCase();
}

/** Faults when a value is an array or object where a scalar belongs. */
export function assertNotComposite(value: unknown, path: string): void {
  if (typeof value === 'object' && value !== null) {
    throw exactMatchingFault(
      `${Array.isArray(value) ? 'An array' : 'A document'} can't be matched as a whole; match single values.`,
      path,
    );
  }
}

/** Checks one operand against the property type and returns it in stored form. */
export function parseScalarValue(value: unknown, type: PropertyType, path: string): Scalar {
  assertNotComposite(value, path);
  switch (type) {
    case 'String':
      if (typeof value === 'string') return value;
      break;
    case 'Number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      break;
    case 'Integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      break;
    case 'Boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'Date': {
      const iso = typeof value === 'string' ? normaliseIsoDate(value) : undefined;
      if (iso !== undefined) return iso;
      throw queryFault('Expected an ISO 8601 date such as 2024-05-01T12:00:00.000Z.', path);
    }
    case 'ObjectId':
    case 'Reference':
      return normaliseObjectId(value, path);
    default:
      throw exactMatchingFault(`A ${type} property can't be compared with a single value.`, path);
  }
  throw queryFault(`Expected a ${describeType(type)} value but got ${describeValue(value)}.`, path);
}

function describeType(type: PropertyType): string {
  return type === 'Integer' ? 'whole-number (Integer)' : type;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a non-finite number';
  return typeof value;
}
