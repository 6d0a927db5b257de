import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import { searchWhere } from './account-admin';
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

/** Accounts a picker offers for a typed text: the Manage-accounts search (`searchWhere`), a few at a time. */
export const ACCOUNT_PICKER_SIZE = 8;

export function accountSearchQuery(orgClient: OrgClient, text: string) {
  return queryOptions({
    queryKey: [...queryKeys.accounts(orgClient.org), 'search', text.trim()] as const,
    queryFn: async ({ signal }): Promise<Account[]> =>
      (
        await orgClient.get<ListEnvelope<Account>>('accounts', {
          query: { where: searchWhere(text), limit: ACCOUNT_PICKER_SIZE, paths: ['email', 'name'] },
          signal,
        })
      ).data,
    enabled: text.trim() !== '',
  });
}

/** One account's email and name, for showing a picked `_id`. */
export function accountQuery(orgClient: OrgClient, id: string) {
  return queryOptions({
    queryKey: [...queryKeys.accounts(orgClient.org), 'one', id] as const,
    queryFn: ({ signal }) =>
      orgClient.get<Account>(`accounts/${encodeURIComponent(id)}`, { query: { paths: ['email', 'name'] }, signal }),
    enabled: id !== '',
  });
}
