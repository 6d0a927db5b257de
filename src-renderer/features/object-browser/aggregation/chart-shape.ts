/**
 * Which charts fit an aggregation's result, read from its shape alone (pure, so unit-tested):
 * documents with a key (`_id`, as `$group` and `$sortByCount` put out) and at least one number
 * beside it. The key decides the chart:
 *
 * - a time (`"2024-03"`, `"2024-03-01"`, an ISO date, `{year, month, day}` parts) → a line of the
 *   values over time (or bars per period);
 * - a number (an age, a score) → a histogram of the keys weighted by the value (or bars per key);
 * - anything else (text, true/false, none, a document of several keys) → bars per key.
 */
import type { PipelineDocument } from '../../../api/aggregations';
import type { ChartKind } from './agg-route';

export type KeyKind = 'category' | 'time' | 'number';

export interface ChartShape {
  /** The key's property (`_id`). */
  keyPath: string;
  keyKind: KeyKind;
  /** Properties whose values are numbers in every document (`count` first, then as they come). */
  valueFields: string[];
  /** The charts that fit, the suggested one first. */
  kinds: ChartKind[];
}

const KEY = '_id';
/** Properties every list document may carry that are no measure. */
const NOT_VALUES = new Set([KEY, 'object']);

const YEAR = /^\d{4}$/;
const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_PARTS = new Set(['year', 'month', 'day', 'dayOfMonth', 'hour']);

/** The key as a time (ms since 1970, UTC), or undefined when it does not read as one. */
export function timeOfKey(key: unknown): number | undefined {
  if (typeof key === 'string') {
    if (YEAR.test(key)) return Date.UTC(Number(key), 0, 1);
    if (YEAR_MONTH.test(key)) return Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1, 1);
    if (DAY.test(key) || ISO_TIME.test(key)) {
      const ms = Date.parse(DAY.test(key) ? `${key}T00:00:00Z` : key);
      return Number.isNaN(ms) ? undefined : ms;
    }
    return undefined;
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return undefined;
  const parts = key as Record<string, unknown>;
  const names = Object.keys(parts);
  if (!names.includes('year') || !names.every((n) => TIME_PARTS.has(n))) return undefined;
  if (!names.every((n) => Number.isInteger(parts[n]))) return undefined;
  const part = (name: string, fallback: number) => (typeof parts[name] === 'number' ? parts[name] : fallback);
  const month = part('month', 1);
  const day = part('day', part('dayOfMonth', 1));
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return Date.UTC(part('year', 1970), month - 1, day, part('hour', 0));
}

function numericFields(docs: readonly PipelineDocument[]): string[] {
  const first = docs[0];
  if (!first) return [];
  const candidates = Object.keys(first).filter((name) => !NOT_VALUES.has(name));
  const fields = candidates.filter((name) =>
    docs.every((doc) => {
      const value = doc[name];
      return value === undefined || value === null || (typeof value === 'number' && Number.isFinite(value));
    }),
  );
  const withNumbers = fields.filter((name) => docs.some((doc) => typeof doc[name] === 'number'));
  // `count` (what $sortByCount and the usual $group put out) is the value a person means first.
  return withNumbers.sort((a, b) => Number(b === 'count') - Number(a === 'count'));
}

/** The charts that fit these documents, or null when none does (no key, or nothing to measure). */
export function chartShape(docs: readonly PipelineDocument[]): ChartShape | null {
  // A group whose key is null comes out without `_id` (null members are left out).
  if (!docs.some((doc) => KEY in doc)) return null;
  const valueFields = numericFields(docs);
  if (valueFields.length === 0) return null;
  const keys = docs.map((doc) => doc[KEY]);
  const present = keys.filter((key) => key !== null && key !== undefined);
  let keyKind: KeyKind = 'category';
  if (present.length > 0 && present.every((key) => timeOfKey(key) !== undefined)) keyKind = 'time';
  else if (present.length > 0 && present.every((key) => typeof key === 'number' && Number.isFinite(key))) {
    keyKind = 'number';
  }
  const kinds: ChartKind[] =
    keyKind === 'time' ? ['line', 'bar'] : keyKind === 'number' ? numberKinds(present as number[]) : ['bar'];
  return { keyPath: KEY, keyKind, valueFields, kinds };
}

/** Few whole numbers (years, ratings) read best as bars; many or fractional ones as a histogram. */
function numberKinds(keys: readonly number[]): ChartKind[] {
  const few = new Set(keys).size <= FEW_KEYS && keys.every((key) => Number.isInteger(key));
  return few ? ['bar', 'histogram'] : ['histogram', 'bar'];
}
const FEW_KEYS = 20;

/** A key as a label: text as it is, none as "(none)", a document's values joined. */
export function keyLabel(key: unknown): string {
  if (key === null || key === undefined) return '(none)';
  if (typeof key === 'string') return key === '' ? '(empty)' : key;
  if (typeof key === 'number' || typeof key === 'boolean') return String(key);
  if (Array.isArray(key)) return key.map(keyLabel).join(', ');
  if (typeof key === 'object') {
    return Object.values(key as Record<string, unknown>)
      .map(keyLabel)
      .join(' · ');
  }
  return JSON.stringify(key);
}

/**
 * What the key of the last grouping stands for, to name the chart ("count per locale"): the
 * grouped path (`"locale"`), the names of a document key, or undefined.
 */
export function groupKeyName(stages: readonly unknown[]): string | undefined {
  for (const stage of [...stages].reverse()) {
    if (typeof stage !== 'object' || stage === null) continue;
    const record = stage as Record<string, unknown>;
    if (!('$group' in record) && !('$sortByCount' in record)) continue;
    const group = record.$group;
    const key =
      typeof group === 'object' && group !== null ? (group as Record<string, unknown>)._id : record.$sortByCount;
    return keyExpressionName(key);
  }
  return undefined;
}

const DATE_FORMATS: Readonly<Record<string, string>> = { '%Y': 'year', '%Y-%m': 'month', '%Y-%m-%d': 'day' };

/** `"locale"` → locale; `{$year: "created"}` → year of created; `{$dateToString: {format: "%Y-%m", date}}` → month of date. */
function keyExpressionName(key: unknown): string | undefined {
  if (typeof key === 'string') return key.replace(/^\$/, '');
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return undefined;
  const entries = Object.entries(key as Record<string, unknown>);
  const [operator, argument] = entries[0] ?? [];
  if (entries.length === 1 && operator === '$dateToString') {
    const { format, date } = (argument ?? {}) as Record<string, unknown>;
    if (typeof format === 'string' && typeof date === 'string') return `${DATE_FORMATS[format] ?? format} of ${date}`;
    return undefined;
  }
  if (entries.length === 1 && operator?.startsWith('$') && typeof argument === 'string') {
    return `${operator.slice(1)} of ${argument}`;
  }
  if (entries.some(([name]) => name.startsWith('$'))) return undefined;
  return entries.map(([name]) => name).join(', ');
}
