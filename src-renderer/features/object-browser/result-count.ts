/** The total behind the pager ("1–100 of 120,001"): the shared count (api/record-count.ts). */
export { countQuery } from '../../api/record-count';

const NUMBER = new Intl.NumberFormat('en-US');

/**
 * "1–100 of 120,001" when the position is known (skip paging, or the first keyset page),
 * "100 rows of 120,001" when it is not; the total reads "…" while counting.
 */
export function rangeLabel(args: {
  first: number | null;
  rows: number;
  total: number | 'counting' | 'cancelled' | null;
}): string {
  const { first, rows, total } = args;
  const of =
    total === null ? '' : total === 'counting' ? ' of …' : total === 'cancelled' ? '' : ` of ${NUMBER.format(total)}`;
  if (rows === 0) return total === 0 || total === null ? 'No rows' : `No rows here${of}`;
  if (first === null) return `${NUMBER.format(rows)} ${rows === 1 ? 'row' : 'rows'}${of}`;
  return `${NUMBER.format(first)}–${NUMBER.format(first + rows - 1)}${of}`;
}
