import type { AccountsPageParams, ListRequest } from './list-requests';
import type { QueryValue } from './query-string';

/** Every react-query key in one place, so invalidation can target an org or a resource. */
export const queryKeys = {
  serviceInfo: () => ['service', 'info'] as const,
  apiReference: () => ['service', 'api-reference'] as const,
  org: (org: string) => ['org', org] as const,
  session: (org: string) => ['org', org, 'session'] as const,
  accounts: (org: string) => ['org', org, 'accounts'] as const,
  accountsPage: (org: string, params: AccountsPageParams) => ['org', org, 'accounts', params] as const,
  schemas: (org: string) => ['org', org, 'schemas'] as const,
  /** Everything read from one collection: its pages and its records. */
  collection: (org: string, collection: string) => ['org', org, 'data', collection] as const,
  listPage: (org: string, collection: string, request: ListRequest) =>
    ['org', org, 'data', collection, 'list', request] as const,
  record: (org: string, collection: string, id: string, args: Record<string, QueryValue>) =>
    ['org', org, 'data', collection, 'record', id, args] as const,
  demoJob: (org: string, id: string) => ['org', org, 'demo-job', id] as const,
};
