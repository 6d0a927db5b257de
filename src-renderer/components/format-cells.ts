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
const COUNT = new Intl.NumberFormat('en-US');

/** "Rows 26–50", and "of 1,234" once the total is known ("of …" while it is counted). */
export function describeRowRange(skip: number, rowCount: number, total?: number | 'counting'): string {
  const of = total === undefined ? '' : total === 'counting' ? ' of …' : ` of ${COUNT.format(total)}`;
  if (rowCount === 0)
    return skip === 0
      ? total === undefined || total === 0
        ? 'No rows'
        : `No rows${of}`
      : `No rows after row ${COUNT.format(skip)}${of}`;
  return `Rows ${COUNT.format(skip + 1)}–${COUNT.format(skip + rowCount)}${of}`;
}
