import { queryOptions } from '@tanstack/react-query';
import type { ConsoleClient } from './console-client';
import { queryKeys } from './query-keys';

/** Whether the connected service serves the API reference page (a remote one may not). */
export function apiReferenceQuery(client: ConsoleClient) {
  return queryOptions({
    queryKey: queryKeys.apiReference(),
    queryFn: ({ signal }) => client.hasApiReference(signal),
    staleTime: Infinity,
  });
}
