import { randomBytes } from 'node:crypto';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { seedOrg } from './seeder.js';
import type { SeedPhase } from '../../../src-shared/contracts/demo-data.js';

export interface SeedJob {
  id: string;
  org: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  phase: SeedPhase;
  done: number;
  total: number;
  started: number;
  finished?: number;
  error?: string;
  cancel: boolean;
}

/** Seeding jobs started from the console: in memory, one running job per org. */
export class SeedJobs {
  private readonly jobs = new Map<string, SeedJob>();

  constructor(private readonly svc: Service) {}

  running(org: Org): SeedJob | undefined {
    return [...this.jobs.values()].find((j) => j.org === org.code && j.state === 'running');
  }

  get(org: Org, id: string): SeedJob | undefined {
    const job = this.jobs.get(id);
    return job && job.org === org.code ? job : undefined;
  }

  start(org: Org, accounts: number, seed: number | undefined): SeedJob {
    const job: SeedJob = {
      id: randomBytes(8).toString('hex'),
      org: org.code,
      state: 'running',
      phase: 'writing',
      done: 0,
      total: accounts,
      started: this.svc.clock.now(),
      cancel: false,
    };
    this.jobs.set(job.id, job);
    seedOrg(this.svc, org, {
      accounts,
      ...(seed !== undefined ? { seed } : {}),
      onProgress: (done) => (job.done = done),
      onPhase: (phase) => (job.phase = phase),
      shouldCancel: () => job.cancel,
    })
      .then((r) => (job.state = r.cancelled ? 'cancelled' : 'done'))
      .catch((err: unknown) => {
        job.state = 'failed';
        job.error = (err as Error).message;
      })
      .finally(() => (job.finished = this.svc.clock.now()));
    return job;
  }
}

export function presentJob(job: SeedJob) {
  const { cancel: _cancel, ...rest } = job;
  return rest;
}
