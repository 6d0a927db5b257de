/**
 * What a job script record must meet on every write: a five-field cron schedule, and, when it
 * names a principal, a usable account of the org — a job that could never run is refused at save.
 * A schedule (a job record's, or a library's `@job`) that would run more often than the org's
 * `maxJobRunsPerDay` in 24 hours is refused too (job-cap.ts), when it is new or changed: an operator
 * lowering the cap does not make an unchanged job unsavable.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { parseSchedule } from './registry.js';
import { recordRules, type RuleInput } from '../records/rules.js';
import { jobRunsPerDayOf } from '../scripting/org-limits.js';
import { libraryRegistrations } from '../scripting/host-library.js';
import { jobOfRegistration } from './decorated.js';
import { assertScheduleWithinCap } from './job-cap.js';

const configurationOf = (doc: Doc | undefined) =>
  (typeof doc?.configuration === 'object' && doc.configuration !== null ? doc.configuration : {}) as Record<
    string,
    unknown
  >;

export function assertJobConfig(svc: Service, org: Org, merged: Doc, current?: Doc): void {
  if (merged.type === 'library') return assertLibraryJobs(svc, org, merged, current);
  if (merged.type !== 'job') return;
  const c = configurationOf(merged);
  const schedule = parseSchedule(c.cron);
  if (current?.type !== 'job' || configurationOf(current).cron !== c.cron) {
    assertScheduleWithinCap(schedule, capOf(svc, org), svc.clock.now(), 'configuration.cron', 'The schedule');
  }
  if (typeof c.principal === 'string' && c.principal !== '') {
    const found = lookupAccountPrincipal(svc, org, c.principal);
    if (!('principal' in found)) {
      throw fault('validation', 'invalidReference', { path: 'configuration.principal', reason: found.problem });
    }
  }
}

/** A library's `@job` schedules (read from its source as the scheduler reads them), when its source changed. */
function assertLibraryJobs(svc: Service, org: Org, merged: Doc, current: Doc | undefined): void {
  if (typeof merged.script !== 'string') return;
  if (current?.type === 'library' && current.script === merged.script) return;
  const lib = { _id: '', source: merged.script, active: merged.active !== false };
  for (const reg of libraryRegistrations(lib)) {
    const job = jobOfRegistration(lib, reg);
    if (job) assertScheduleWithinCap(job.schedule, capOf(svc, org), svc.clock.now(), 'script', `@job ${job.handler}`);
  }
}

/** The cap as stored now (the org handed to a rule may be a cached copy from before `org set`). */
const capOf = (svc: Service, org: Org) => jobRunsPerDayOf(svc.orgs.byId(org.id) ?? org);

/** Makes every write of a script record check it (the shared write path's registry). */
export function registerJobRules(svc: Service): void {
  recordRules(svc).register('script', 'job-rules', ({ org, merged, current }: RuleInput) =>
    assertJobConfig(svc, org, merged, current?.doc),
  );
}
