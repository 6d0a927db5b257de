/**
 * Account administration: provisioning, verification, lock/unlock, two-factor reset, role
 * assignment and deletion — the admin routes of docs/sessions.md over `/accounts`.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import { queryKeys } from './query-keys';
import { normalizeList, type Account, type ListEnvelope, type ListPage } from './types';

export interface AdminAccount extends Account {
  mobile?: string;
  inherited_roles?: string[];
}

export interface NewAccount {
  email: string;
  password: string;
  name?: { first?: string; last?: string };
  roles?: string[];
}

export type AccountPatch = Partial<Pick<AdminAccount, 'roles' | 'locked' | 'state' | 'name' | 'email' | 'mobile'>>;

export type AccountAction = 'verify' | 'unlock' | 'reset-two-factor';

export const ADMIN_PAGE_SIZE = 50;

const adminKey = (org: string) => ['org', org, 'accounts', 'admin'] as const;

/** Escapes a search text for a `$regex` (the service's RE2 syntax). */
export function regexLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * The `where` for the search box, case-insensitive: an email prefix, or a first or last name
 * prefix (a search by name, issue #18 item 10); an id matches exactly.
 */
export function searchWhere(search: string): Record<string, unknown> | undefined {
  const text = search.trim();
  if (text === '') return undefined;
  if (/^[0-9a-f]{24}$/i.test(text)) return { _id: text.toLowerCase() };
  const prefix = { $regex: `/^${regexLiteral(text.slice(0, 200))}/i` };
  return { $or: [{ email: prefix }, { 'name.first': prefix }, { 'name.last': prefix }] };
}

/** An administrator sets an account's password (the service applies the strength rule). */
export function useSetAccountPassword(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) =>
      orgClient.post<AdminAccount>(`accounts/${encodeURIComponent(id)}/password`, { password }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'sessions'] }),
  });
}

export function adminAccountsQuery(orgClient: OrgClient, search: string, skip: number) {
  return queryOptions({
    queryKey: [...adminKey(orgClient.org), 'list', search, skip] as const,
    queryFn: async ({ signal }): Promise<ListPage<AdminAccount>> => {
      const envelope = await orgClient.get<ListEnvelope<AdminAccount>>('accounts', {
        signal,
        query: { where: searchWhere(search), limit: ADMIN_PAGE_SIZE, skip },
      });
      return normalizeList(envelope);
    },
    placeholderData: keepPreviousData,
  });
}

export function adminAccountQuery(orgClient: OrgClient, id: string) {
  return queryOptions({
    queryKey: [...adminKey(orgClient.org), 'one', id] as const,
    queryFn: ({ signal }) => orgClient.get<AdminAccount>(`accounts/${encodeURIComponent(id)}`, { signal }),
  });
}

/** Every cached account list of the org (the admin list and the accounts grid) is stale after a change. */
function useInvalidateAccounts(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.accounts(orgClient.org) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.collection(orgClient.org, 'accounts') });
  };
}

export function useCreateAccount(orgClient: OrgClient) {
  const invalidate = useInvalidateAccounts(orgClient);
  return useMutation({
    mutationFn: (account: NewAccount) => orgClient.post<AdminAccount>('accounts', account),
    onSettled: invalidate,
  });
}

export function usePatchAccount(orgClient: OrgClient) {
  const invalidate = useInvalidateAccounts(orgClient);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AccountPatch }) =>
      orgClient.request<AdminAccount>('PATCH', `accounts/${encodeURIComponent(id)}`, { body: patch }),
    onSettled: invalidate,
  });
}

export function useAccountAction(orgClient: OrgClient) {
  const invalidate = useInvalidateAccounts(orgClient);
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: AccountAction }) =>
      orgClient.post<AdminAccount>(`accounts/${encodeURIComponent(id)}/${action}`),
    onSettled: invalidate,
  });
}

export function useDeleteAccount(orgClient: OrgClient) {
  const invalidate = useInvalidateAccounts(orgClient);
  return useMutation({
    mutationFn: (id: string) => orgClient.request<unknown>('DELETE', `accounts/${encodeURIComponent(id)}`),
    onSettled: invalidate,
  });
}
