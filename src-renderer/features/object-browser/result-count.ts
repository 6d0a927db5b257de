/**
 * The total behind the pager ("1–100 of 120,001"): the driver's count operation
 * (`POST /<org>/v2/<collection>/db/count`, original-clients.md §A) with the page's where. It runs
 * after the page has shown (it never delays rows) and can be cancelled: on a huge collection a
 * count walks every match.
 */
import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';

export function countQuery(orgClient: OrgClient, collection: string, where: Record<string, unknown> | undefined) {
  return queryOptions({
    queryKey: [...queryKeys.collection(orgClient.org, collection), 'count', where ?? {}],
    queryFn: async ({ signal }) => {
      const answer = await orgClient.request<{ data: unknown }>('POST', `${encodeURIComponent(collection)}/db/count`, {
        body: where === undefined ? {} : { where },
        signal,
      });
      if (typeof answer.data !== 'number') throw new Error('The count answer is not a number.');
      return answer.data;
    },
    staleTime: 30_000,
    retry: false,
  });
}

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
