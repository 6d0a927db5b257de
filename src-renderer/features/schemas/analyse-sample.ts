/**
 * Compass's Schema tab for a sample of records: per path, the types seen, how often it is present,
 * min/max and a histogram for numbers and dates, the most frequent values for text and flags.
 * Pure, so it is unit-tested; the component only fetches the sample and draws the result.
 */

export type SeenType =
  'String' | 'Number' | 'Boolean' | 'Date' | 'ObjectId' | 'Reference' | 'Document' | 'Array' | 'Null';

export interface PathAnalysis {
  path: string;
  /** Records holding at least one non-null value here. */
  present: number;
  /** How often each JSON type was seen (array elements counted one by one). */
  types: Partial<Record<SeenType, number>>;
  /** Numbers and dates: the range and ten equal-width buckets (dates as ISO text). */
  range?: { min: number | string; max: number | string; buckets: number[] };
  /** Text and flags: the most frequent values, most frequent first. */
  top?: { value: string; count: number }[];
  /** Distinct values seen (text and flags). */
  distinct?: number;
}

export interface SampleAnalysis {
  records: number;
  paths: PathAnalysis[];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
const BUCKETS = 10;
const TOP = 3;

/** Every value at a dotted path, stepping into arrays on the way (elements one by one). */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path.split('.')) {
    const next: unknown[] = [];
    for (const value of current) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'object' && item !== null && !Array.isArray(item) && segment in item) {
          next.push((item as Record<string, unknown>)[segment]);
        }
      }
    }
    current = next;
  }
  return current.flatMap((value) => (Array.isArray(value) ? value : [value]));
}

/**
 * The type a value shows, read with the declared type in mind: JSON has no dates or ids, so an ISO
 * time in a Date property is a Date, 24 hex digits in an ObjectId property an ObjectId, and a
 * Reference's `{_id, …}` (or bare id) a Reference — not the String or Document JSON says.
 */
function typeOf(value: unknown, declared: string | undefined): SeenType {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'Array';
  if (typeof value === 'number') return 'Number';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'string') {
    if (declared === 'Date' && ISO_DATE.test(value)) return 'Date';
    if ((declared === 'ObjectId' || declared === 'Reference') && OBJECT_ID.test(value)) {
      return declared === 'ObjectId' ? 'ObjectId' : 'Reference';
    }
    return 'String';
  }
  const id = (value as { _id?: unknown })._id;
  if (declared === 'Reference' && typeof id === 'string' && OBJECT_ID.test(id)) return 'Reference';
  return 'Document';
}

/** Analyses `records` for each of `paths` (`{path, type}` as the definition declares them). */
export function analyseSample(
  records: readonly unknown[],
  paths: readonly { path: string; type: string }[],
): SampleAnalysis {
  return {
    records: records.length,
    paths: paths.map(({ path, type }) => analysePath(records, path, type)),
  };
}

function analysePath(records: readonly unknown[], path: string, declared: string): PathAnalysis {
  const types: Partial<Record<SeenType, number>> = {};
  const numbers: number[] = [];
  const dates: number[] = [];
  const words = new Map<string, number>();
  let present = 0;
  for (const record of records) {
    const values = valuesAt(record, path);
    if (values.some((v) => v !== null && v !== undefined)) present += 1;
    for (const value of values) {
      if (value === undefined) continue;
      const seen = typeOf(value, declared);
      types[seen] = (types[seen] ?? 0) + 1;
      if (seen === 'Number') numbers.push(value as number);
      else if (seen === 'Date') dates.push(Date.parse(value as string));
      else if (seen === 'String' || seen === 'Boolean') words.set(String(value), (words.get(String(value)) ?? 0) + 1);
    }
  }
  const out: PathAnalysis = { path, present, types };
  if (dates.length > 0) {
    const range = histogram(dates);
    out.range = { ...range, min: new Date(range.min).toISOString(), max: new Date(range.max).toISOString() };
  } else if (numbers.length > 0) {
    out.range = histogram(numbers);
  }
  if (words.size > 0) {
    out.distinct = words.size;
    out.top = [...words]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP)
      .map(([value, count]) => ({ value, count }));
  }
  return out;
}

/** Min, max and counts in ten equal-width buckets (one bucket when all values are equal). */
export function histogram(values: readonly number[]): { min: number; max: number; buckets: number[] } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === max) return { min, max, buckets: [values.length] };
  const buckets = new Array<number>(BUCKETS).fill(0);
  const width = (max - min) / BUCKETS;
  for (const v of values) {
    const index = Math.min(BUCKETS - 1, Math.floor((v - min) / width));
    buckets[index] = (buckets[index] ?? 0) + 1;
  }
  return { min, max, buckets };
}
