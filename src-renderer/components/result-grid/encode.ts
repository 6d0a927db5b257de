/**
 * CSV (RFC 4180) and NDJSON encoding of records, for exports. Pure, so it is unit-tested.
 * Nested values (documents, arrays) go into one CSV cell as JSON.
 */

/** The value at a dotted path (`name.first`); undefined when any step is missing. */
export function valueAt(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(columns: readonly string[]): string {
  return `${columns.map(csvCell).join(',')}\r\n`;
}

export function csvRows(records: readonly unknown[], columns: readonly string[]): string {
  return records.map((record) => `${columns.map((column) => csvCell(valueAt(record, column))).join(',')}\r\n`).join('');
}

export function ndjsonRows(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
