import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListRequest } from './list-requests';
import { queryKeys } from './query-keys';
import type { QueryValue } from './query-string';
import { normalizeList, type ListEnvelope, type ListPage } from './types';

/** A stored object as the service returns it; only `_id` and `object` are certain. */
export interface ObjectRecord {
  _id: string;
  object: string;
  [property: string]: unknown;
}

export type { ListRequest };

/** Query-string arguments of a list request; `prefix` names a list property (`connections.`). */
export function listArgs(request: ListRequest, prefix = ''): Record<string, QueryValue> {
  const args: Record<string, QueryValue> = {};
  if (request.where && Object.keys(request.where).length > 0) args[`${prefix}where`] = request.where;
  if (request.sort && Object.keys(request.sort).length > 0) args[`${prefix}sort`] = request.sort;
  if (request.skip) args[`${prefix}skip`] = request.skip;
  args[`${prefix}limit`] = request.limit;
  if (request.paths && request.paths.length > 0) args[`${prefix}paths`] = request.paths;
  return args;
}

export async function fetchListPage(
  orgClient: OrgClient,
  collection: string,
  request: ListRequest,
  signal?: AbortSignal,
): Promise<ListPage<ObjectRecord>> {
  const envelope = await orgClient.get<ListEnvelope<ObjectRecord>>(encodeURIComponent(collection), {
    query: listArgs(request),
    signal,
  });
  return normalizeList(envelope);
}

export function listPageQuery(orgClient: OrgClient, collection: string, request: ListRequest) {
  return queryOptions({
    queryKey: queryKeys.listPage(orgClient.org, collection, request),
    queryFn: ({ signal }) => fetchListPage(orgClient, collection, request, signal),
    placeholderData: keepPreviousData,
  });
}

export function recordQuery(
  orgClient: OrgClient,
  collection: string,
  id: string,
  listArgsByProperty: Record<string, QueryValue> = {},
) {
  return queryOptions({
    queryKey: queryKeys.record(orgClient.org, collection, id, listArgsByProperty),
    queryFn: ({ signal }) =>
      orgClient.get<ObjectRecord>(`${encodeURIComponent(collection)}/${encodeURIComponent(id)}`, {
        query: listArgsByProperty,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function createRecord(orgClient: OrgClient, collection: string, body: Record<string, unknown>) {
  return orgClient.post<ObjectRecord>(encodeURIComponent(collection), body);
}

export function patchRecord(orgClient: OrgClient, collection: string, id: string, body: Record<string, unknown>) {
  return orgClient.request<ObjectRecord>('PATCH', `${encodeURIComponent(collection)}/${encodeURIComponent(id)}`, {
    body,
  });
}

export function deleteRecord(orgClient: OrgClient, collection: string, id: string) {
  return orgClient.request<unknown>('DELETE', `${encodeURIComponent(collection)}/${encodeURIComponent(id)}`);
}
