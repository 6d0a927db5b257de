import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { JsonValue } from '../../src-shared/query/json';
import type { OrgClient } from './org-client';
import { queryKeys } from './query-keys';
import type { QueryValue } from './query-string';
import { normalizeList, type ListEnvelope, type ListPage } from './types';

/** A document out of a pipeline: any shape (a `$group` puts out `{_id, count}`, say). */
export type PipelineDocument = Record<string, unknown>;

/**
 * The list arguments of an aggregation: `pipeline` as one JSON text (the service reads
 * `pipeline=<url-encoded JSON array>`, never `pipeline[]=`), and a page size when one is wanted.
 */
export function pipelineArgs(stages: readonly JsonValue[], limit?: number): Record<string, QueryValue> {
  const args: Record<string, QueryValue> = { pipeline: JSON.stringify(stages) };
  if (limit !== undefined) args.limit = limit;
  return args;
}

export async function fetchAggregation(
  orgClient: OrgClient,
  collection: string,
  stages: readonly JsonValue[],
  limit: number | undefined,
  signal?: AbortSignal,
): Promise<ListPage<PipelineDocument>> {
  const envelope = await orgClient.get<ListEnvelope<PipelineDocument>>(encodeURIComponent(collection), {
    query: pipelineArgs(stages, limit),
    signal,
  });
  return normalizeList(envelope);
}

/** One aggregation's answer, cached with the collection's data (a refresh there refreshes it). */
export function aggregationQuery(
  orgClient: OrgClient,
  collection: string,
  stages: readonly JsonValue[],
  limit: number | undefined,
) {
  return queryOptions({
    queryKey: [...queryKeys.collection(orgClient.org, collection), 'aggregate', JSON.stringify(stages), limit ?? null],
    queryFn: ({ signal }) => fetchAggregation(orgClient, collection, stages, limit, signal),
    placeholderData: keepPreviousData,
    // A preview is asked again only when its stages change, not on every render of the card.
    staleTime: 60_000,
  });
}
