/** The exact request of an aggregation, shown to the user and turned into commands (Request ▾). */
import type { JsonValue } from '../../../../src-shared/query/json';
import { pipelineArgs } from '../../../api/aggregations';
import { buildQueryString } from '../../../api/query-string';

export function aggregationUrl(
  origin: string,
  org: string,
  collection: string,
  stages: readonly JsonValue[],
  limit: number | undefined,
): string {
  return `${origin}/${encodeURIComponent(org)}/v2/${encodeURIComponent(collection)}${buildQueryString(pipelineArgs(stages, limit))}`;
}
