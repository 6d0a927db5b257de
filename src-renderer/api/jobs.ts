import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListEnvelope } from './types';

/** A job script as `GET /jobs` shows it (issue 41). */
export interface JobSummary {
  _id: string;
  label: string;
  cron: string;
  principal: string | null;
  active: boolean;
  problem: string | null;
  nextRun: string | null;
  lastRuns: {
    kind: 'schedule' | 'manual';
    started: string;
    ended: string | null;
    outcome: 'ok' | 'fault' | null;
    errCode: string | null;
  }[];
}

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
