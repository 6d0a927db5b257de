import type { SeedPhase } from '../../src-shared/contracts/demo-data';
import type { OrgClient } from './org-client';
import type { ResultEnvelope } from './types';

export type DemoJobState = 'running' | 'done' | 'failed' | 'cancelled';

/** A seeding job of `POST /demo-data/jobs`; polled until its state is not `running`. */
export interface DemoJob {
  id: string;
  state: DemoJobState;
  /** Absent from services older than the phase; treated as 'writing'. */
  phase?: SeedPhase;
  done: number;
  total: number;
  error?: string;
}

export async function startDemoJob(orgClient: OrgClient, accounts: number, seed?: number): Promise<DemoJob> {
  const body = seed === undefined ? { accounts } : { accounts, seed };
  return (await orgClient.post<ResultEnvelope<DemoJob>>('demo-data/jobs', body)).data;
}

export async function getDemoJob(orgClient: OrgClient, id: string, signal?: AbortSignal): Promise<DemoJob> {
  return (await orgClient.get<ResultEnvelope<DemoJob>>(`demo-data/jobs/${encodeURIComponent(id)}`, { signal })).data;
}

export async function cancelDemoJob(orgClient: OrgClient, id: string): Promise<void> {
  await orgClient.request('DELETE', `demo-data/jobs/${encodeURIComponent(id)}`);
}
