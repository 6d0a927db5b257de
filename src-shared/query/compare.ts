/**
 * Value semantics shared with SQLite, so the in-memory evaluator orders and compares exactly like
 * the compiled SQL: `json_extract` turns true/false into 1/0, missing into NULL, and SQLite orders
 * NULL < numbers < text, comparing text with BINARY collation (UTF-8 bytes = code points).
 */

export type SqlValue = null | number | string;

/** A JSON value as SQLite's json_extract would see it. */
export function toSqlValue(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  // Composite values (not produced by conforming records) surface as JSON text in SQLite.
  return JSON.stringify(value);
}

/**
 * Maps a UTF-16 code unit so that unit order equals code point order: surrogates (which encode
 * code points above U+FFFF) must sort after U+E000–U+FFFF.
 */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Compares strings by Unicode code point (not UTF-16 unit), like SQLite BINARY on UTF-8. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function storageClass(value: SqlValue): number {
  if (value === null) return 0;
  return typeof value === 'number' ? 1 : 2;
}

/** SQLite ordering: NULL < numbers < text. Returns <0, 0, >0. */
export function compareSqlValues(a: SqlValue, b: SqlValue): number {
  const classDiff = storageClass(a) - storageClass(b);
  if (classDiff !== 0) return classDiff;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return 0; // both NULL
}

/** SQL `=`: NULL equals nothing; values of different storage classes are never equal. */
export function sqlEquals(a: SqlValue, b: SqlValue): boolean {
  return a !== null && b !== null && storageClass(a) === storageClass(b) && compareSqlValues(a, b) === 0;
}
