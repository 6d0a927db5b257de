/**
 * How many records a `where` matches: the driver's count operation
 * (`POST /<org>/v2/<collection>/db/count`, docs/driver.md), with the same access rules as
 * the list. Asked after the rows have shown (never delaying them) and cancellable: on a huge
 * collection a count walks every match.
 */
import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import { queryKeys } from './query-keys';

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
