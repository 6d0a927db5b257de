import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { AccountsPageParams } from './list-requests';
import { queryKeys } from './query-keys';
import { normalizeList, type Account, type ListEnvelope, type ListPage } from './types';

export type { AccountsPageParams };

export function accountsPageQuery(orgClient: OrgClient, params: AccountsPageParams) {
  return queryOptions({
    queryKey: queryKeys.accountsPage(orgClient.org, params),
    queryFn: async ({ signal }): Promise<ListPage<Account>> => {
      const envelope = await orgClient.get<ListEnvelope<Account>>('accounts', {
        query: { ...params },
        signal,
      });
      return normalizeList(envelope);
    },
    // Keep the current page on screen while the next one loads; the pager is disabled meanwhile.
    placeholderData: keepPreviousData,
  });
}
