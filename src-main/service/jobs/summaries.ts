/**
 * What the console's Scripts screen shows of each job (records, and libraries' `@job` methods): its
 * schedule, whether it is active and runs, when it runs next (UTC, from the service clock) and its
 * latest runs.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { nextSlot, parseSchedule } from './job-def.js';
import { decoratedJobs } from './decorated.js';
import type { JobCap, JobSummary } from '../../../src-shared/contracts/jobs.js';
import { jobRunsPerDayOf } from '../scripting/org-limits.js';
import { capWindowStart, MAX_JOBS_PER_DAY_ERRCODE } from './job-cap.js';

export type { JobCap, JobSummary } from '../../../src-shared/contracts/jobs.js';

/** The org's cap and what is left of it now, counted as a run's claim counts (job-runs.ts). */
export function jobCap(svc: Service, org: Org): JobCap {
  const max = jobRunsPerDayOf(org);
  const since = capWindowStart(svc.clock.now());
  const used = svc.jobRuns.countSince(org.id, { max, since, errCode: MAX_JOBS_PER_DAY_ERRCODE });
  return { maxJobRunsPerDay: max, runsLeft: Math.max(0, max - used) };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function jobSummaries(svc: Service, org: Org): JobSummary[] {
  const def = svc.defs.byName(org.id, 'script');
  if (!def) return [];
  const now = svc.clock.now();
  const out: JobSummary[] = [];
  for (const record of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
    const doc = record.doc;
    if (doc.type !== 'job') continue;
    const c = (doc.configuration ?? {}) as Record<string, unknown>;
    const active = doc.active !== false;
    let problem: string | null = null;
    let nextRun: string | null = null;
    try {
      const next = nextSlot(parseSchedule(c.cron), now);
      if (active && next !== undefined) nextRun = iso(next);
    } catch (e) {
      problem = (e as { fault?: { reason?: string } }).fault?.reason ?? 'The schedule cannot be read.';
    }
    out.push({
      _id: record._id,
      label: [doc.label, doc.name].find((v): v is string => typeof v === 'string' && v !== '') ?? record._id,
      cron: typeof c.cron === 'string' ? c.cron : '',
      principal: typeof c.principal === 'string' && c.principal !== '' ? c.principal : null,
      active,
      problem,
      nextRun,
      lastRuns: lastRuns(svc, org, record._id),
    });
  }
  for (const job of decoratedJobs(svc, org)) {
    const next = job.active ? nextSlot(job.schedule, now) : undefined;
    out.push({
      _id: job.scriptId,
      ...(job.handler ? { handler: job.handler } : {}),
      label: job.label,
      cron: job.cron,
      principal: job.principal ?? null,
      active: job.active,
      problem: null,
      nextRun: next === undefined ? null : iso(next),
      lastRuns: lastRuns(svc, org, job.key),
    });
  }
  return out;
}

function lastRuns(svc: Service, org: Org, key: string): JobSummary['lastRuns'] {
  return svc.jobRuns.recent(org.id, key, 5).map((r) => ({
    kind: r.kind,
    started: iso(r.started),
    ended: r.ended === null ? null : iso(r.ended),
    outcome: r.outcome,
    errCode: r.errCode,
  }));
}
