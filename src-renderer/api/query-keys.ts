import type { AccountsPageParams } from './accounts';

/** Every react-query key in one place, so invalidation can target an org or a resource. */
export const queryKeys = {
  serviceInfo: () => ['service', 'info'] as const,
  org: (org: string) => ['org', org] as const,
  session: (org: string) => ['org', org, 'session'] as const,
  accounts: (org: string) => ['org', org, 'accounts'] as const,
  accountsPage: (org: string, params: AccountsPageParams) => ['org', org, 'accounts', params] as const,
};
