import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListEnvelope } from './types';
import type { JobSummary } from '../../src-shared/contracts/jobs';

export type { JobSummary } from '../../src-shared/contracts/jobs';

export const jobKeys = { all: (org: string) => ['org', org, 'jobs'] as const };

export function jobsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: jobKeys.all(orgClient.org),
    queryFn: async ({ signal }) => (await orgClient.get<ListEnvelope<JobSummary>>('jobs', { signal })).data,
    staleTime: 0,
  });
}

/** `POST /scripts/:id/run`: runs a job now; answers what the run answered. */
export async function runJobNow(orgClient: OrgClient, id: string): Promise<unknown> {
  return orgClient.post(`scripts/${encodeURIComponent(id)}/run`, {});
}
