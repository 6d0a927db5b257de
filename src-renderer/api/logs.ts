import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import { normalizeList, type ListEnvelope, type ListPage } from './types';

/** A script run's log entry (`GET /logs`, issue 41); the fields the console shows. */
export interface LogEntry {
  _id: string;
  beg?: string;
  end?: string;
  ms?: number;
  lvl?: 'info' | 'warn' | 'error';
  sts?: number;
  stp?: 'runner' | 'route' | 'trigger' | 'job';
  sid?: string;
  label?: string;
  pid?: string;
  oid?: string;
  err?: { errCode?: string; message?: string; reason?: string; trace?: string };
  trc?: { function?: string; line?: number }[];
  dat?: { event?: string; object?: string; target?: string; result?: string; path?: string };
  console?: { level: string; message: string }[];
  truncated?: boolean;
}

/** An audit entry (`GET /audits`, issue 41). */
export interface AuditEntry {
  _id: string;
  created?: string;
  cat?: string;
  sub?: string;
  principal?: string;
  actor?: {
    type?: string;
    account?: string;
    email?: string;
    app?: string;
    jti?: string;
    script?: string;
    scriptType?: string;
    address?: string;
  };
  context?: { object?: string; _id?: string; label?: string };
  summary?: string;
  changes?: string[];
}

export interface EntryFilter {
  where: Record<string, unknown>;
  skip: number;
  limit: number;
}

function entriesQuery<T>(orgClient: OrgClient, collection: 'logs' | 'audits', filter: EntryFilter, live: boolean) {
  return queryOptions({
    queryKey: ['org', orgClient.org, collection, filter] as const,
    queryFn: async ({ signal }): Promise<ListPage<T>> =>
      normalizeList(
        await orgClient.get<ListEnvelope<T>>(collection, {
          query: { where: filter.where, sort: { _id: -1 }, skip: filter.skip, limit: filter.limit },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    // A live tail asks again every two seconds (runs of every process on the folder show up).
    refetchInterval: live ? 2000 : false,
    staleTime: 0,
  });
}

export const logsQuery = (orgClient: OrgClient, filter: EntryFilter, live: boolean) =>
  entriesQuery<LogEntry>(orgClient, 'logs', filter, live);

export const auditsQuery = (orgClient: OrgClient, filter: EntryFilter) =>
  entriesQuery<AuditEntry>(orgClient, 'audits', filter, false);
