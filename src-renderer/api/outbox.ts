import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { LiveSession, OutboxMessage } from '../../src-shared/contracts/outbox';
import type { OrgClient } from './org-client';
import { normalizeList, type Account, type ListEnvelope, type ListPage } from './types';

export type { LiveSession, OutboxMessage };

export const outboxKeys = {
  page: (org: string, skip: number, limit: number) => ['org', org, 'outbox', { skip, limit }] as const,
  sessions: (org: string) => ['org', org, 'sessions'] as const,
  sessionAccounts: (org: string, ids: readonly string[]) => ['org', org, 'sessions', 'accounts', ids] as const,
};

export function outboxPageQuery(orgClient: OrgClient, skip: number, limit: number) {
  return queryOptions({
    queryKey: outboxKeys.page(orgClient.org, skip, limit),
    queryFn: async ({ signal }): Promise<ListPage<OutboxMessage>> =>
      normalizeList(await orgClient.get<ListEnvelope<OutboxMessage>>('outbox', { query: { skip, limit }, signal })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function sessionsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: outboxKeys.sessions(orgClient.org),
    queryFn: async ({ signal }): Promise<LiveSession[]> =>
      (await orgClient.get<ListEnvelope<LiveSession>>('sessions', { query: { limit: 1000 }, signal })).data,
    staleTime: 0,
  });
}

/** The emails of the accounts behind sessions, so the list names people rather than ids. */
export function sessionAccountsQuery(orgClient: OrgClient, ids: readonly string[]) {
  return queryOptions({
    queryKey: outboxKeys.sessionAccounts(orgClient.org, ids),
    queryFn: async ({ signal }): Promise<Map<string, Account>> => {
      const envelope = await orgClient.get<ListEnvelope<Account>>('accounts', {
        query: { where: { _id: { $in: [...ids] } }, paths: ['email', 'name'], limit: 1000 },
        signal,
      });
      return new Map(envelope.data.map((a) => [a._id, a]));
    },
    enabled: ids.length > 0,
  });
}

export async function endSession(orgClient: OrgClient, id: string): Promise<void> {
  await orgClient.request('DELETE', `sessions/${encodeURIComponent(id)}`);
}
