/**
 * The `$group` card's simple form: "count the documents per <path>" or "per year / month / day of
 * <date>", the two groupings an analyst asks for most. It writes the stage's JSON and reads it
 * back when the JSON still has that shape, so form and text stay one thing. Pure, so unit-tested.
 */
import { isJsonObject, type JsonValue } from '../../../../src-shared/query/json';
import { propertyPaths, type ObjectDef } from '../../../../src-shared/schema/types';

export type GroupUnit = 'value' | 'year' | 'month' | 'day';
export const DATE_UNITS: readonly GroupUnit[] = ['year', 'month', 'day'];

export interface GroupForm {
  path: string;
  unit: GroupUnit;
  /** The name of the count in the output (`count`). */
  countName: string;
}

const FORMATS: Record<Exclude<GroupUnit, 'value'>, string> = { year: '%Y', month: '%Y-%m', day: '%Y-%m-%d' };

export interface GroupablePath {
  path: string;
  date: boolean;
}

/** Single values of the stored records a group can be keyed by (not arrays, documents or lists). */
export function groupablePaths(def: ObjectDef): GroupablePath[] {
  return propertyPaths(def)
    .filter(
      ({ def: p, inArray }) =>
        !inArray && p.hidden !== true && p.type !== 'Document' && p.type !== 'List' && p.name !== 'object',
    )
    .map(({ path, def: p }) => ({ path, date: p.type === 'Date' }));
}

export function groupFormValue(form: GroupForm): JsonValue {
  const key: JsonValue =
    form.unit === 'value' ? form.path : { $dateToString: { format: FORMATS[form.unit], date: form.path } };
  return { _id: key, [form.countName]: { $sum: 1 } };
}

/** The form a `$group` value stands for, or null when it is more than the form can show. */
export function readGroupForm(value: JsonValue): GroupForm | null {
  if (!isJsonObject(value)) return null;
  const names = Object.keys(value);
  const countName = names.find((name) => name !== '_id');
  if (names.length !== 2 || !names.includes('_id') || countName === undefined) return null;
  if (JSON.stringify(value[countName]) !== JSON.stringify({ $sum: 1 })) return null;
  const key = value._id;
  if (typeof key === 'string') return key.startsWith('$') ? null : { path: key, unit: 'value', countName };
  if (!isJsonObject(key) || Object.keys(key).length !== 1 || !isJsonObject(key.$dateToString)) return null;
  const { format, date, ...rest } = key.$dateToString;
  const unit = (Object.keys(FORMATS) as (keyof typeof FORMATS)[]).find((u) => FORMATS[u] === format);
  if (unit === undefined || typeof date !== 'string' || Object.keys(rest).length > 0) return null;
  return { path: date, unit, countName };
}
