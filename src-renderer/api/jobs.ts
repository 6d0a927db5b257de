import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListEnvelope } from './types';
import type { JobCap, JobSummary } from '../../src-shared/contracts/jobs';

export type { JobCap, JobSummary } from '../../src-shared/contracts/jobs';

/** `GET /jobs`: the org's jobs, and its cap on job runs with what is left of it now. */
export interface OrgJobs {
  jobs: JobSummary[];
  cap: JobCap | null;
}

export const jobKeys = { all: (org: string) => ['org', org, 'jobs'] as const };

export function jobsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: jobKeys.all(orgClient.org),
    queryFn: async ({ signal }): Promise<OrgJobs> => {
      const list = await orgClient.get<ListEnvelope<JobSummary> & { cap?: JobCap }>('jobs', { signal });
      return { jobs: list.data, cap: list.cap ?? null };
    },
    staleTime: 0,
  });
}

/** `POST /scripts/:id/run`: runs a job now; answers what the run answered. */
export async function runJobNow(orgClient: OrgClient, id: string): Promise<unknown> {
  return orgClient.post(`scripts/${encodeURIComponent(id)}/run`, {});
}
