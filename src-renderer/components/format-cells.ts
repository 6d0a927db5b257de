/** Cell text for the grid; pure, so the formats are tested without a browser. */

export const EMPTY_CELL = '—';

/** `2024-05-01T12:34:56.789Z` → `2024-05-01 12:34:56` (UTC, like the stored value). */
export function formatTimestamp(value: string | undefined): string {
  if (!value) return EMPTY_CELL;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function formatText(value: string | undefined): string {
  return value === undefined || value === '' ? EMPTY_CELL : value;
}

/** "Rows 26–50" for the pager; an empty page says where it is instead. */
export function describeRowRange(skip: number, rowCount: number): string {
  if (rowCount === 0) return skip === 0 ? 'No rows' : `No rows after row ${skip}`;
  return `Rows ${skip + 1}–${skip + rowCount}`;
}
