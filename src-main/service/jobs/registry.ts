/**
 * The org's job table: script records of `type: "job"` (`configuration: {cron, principal}`,
 * active unless `active: false`), each with its schedule parsed once. Schedules are five-field
 * cron expressions (minute hour day-of-month month day-of-week, as the original requires), read by
 * `croner` in UTC; the table is rebuilt only when the org's script records change
 * (scripting/script-generation.ts).
 */
import { Cron } from 'croner';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { scriptGeneration } from '../scripting/script-generation.js';

export interface JobDef {
  /** The job's key in `job_runs`: its script record's `_id`. */
  key: string;
  scriptId: string;
  label: string;
  cron: string;
  /** Run as this account (`_id` or email); absent: anonymous, as the original runs jobs. */
  principal?: string;
  source: string;
  schedule: Cron;
}

/** A schedule checked: five fields, and one croner reads. Throws the fault to answer otherwise. */
export function parseSchedule(cron: unknown, path = 'configuration.cron'): Cron {
  const text = typeof cron === 'string' ? cron.trim() : '';
  if (text.split(/\s+/).length !== 5) {
    throw fault('validation', 'invalidCron', {
      path,
      reason:
        'A job runs on a five-field cron schedule (minute hour day-of-month month day-of-week), e.g. */5 * * * *.',
    });
  }
  try {
    return new Cron(text, { paused: true, timezone: 'UTC', mode: '5-part' });
  } catch (e) {
    throw fault('validation', 'invalidCron', {
      path,
      reason: `${text.slice(0, 100)} is not a cron schedule: ${e instanceof Error ? e.message.slice(0, 200) : 'unreadable'}.`,
    });
  }
}

/** The first slot of `schedule` after `after` (ms), or undefined when it has none. */
export function nextSlot(schedule: Cron, after: number): number | undefined {
  return schedule.nextRun(new Date(after))?.getTime();
}

/** A job record's definition, or undefined when it is not an active, well-formed job. */
export function jobOfRecord(_id: string, doc: Doc): JobDef | undefined {
  if (doc.type !== 'job' || doc.active === false || typeof doc.script !== 'string') return undefined;
  const c = (doc.configuration ?? {}) as Record<string, unknown>;
  let schedule: Cron;
  try {
    schedule = parseSchedule(c.cron);
  } catch {
    return undefined;
  }
  const label = [doc.label, doc.name].find((v): v is string => typeof v === 'string' && v !== '') ?? _id;
  return {
    key: _id,
    scriptId: _id,
    label,
    cron: String(c.cron).trim(),
    ...(typeof c.principal === 'string' && c.principal !== '' ? { principal: c.principal } : {}),
    source: doc.script,
    schedule,
  };
}

const tables = new WeakMap<Service, Map<number, { generation: string; jobs: JobDef[] }>>();

/** The org's active jobs. */
export function orgJobs(svc: Service, org: Org): JobDef[] {
  let byOrg = tables.get(svc);
  if (!byOrg) tables.set(svc, (byOrg = new Map()));
  const generation = scriptGeneration(svc, org.id);
  const known = byOrg.get(org.id);
  if (known && known.generation === generation) return known.jobs;
  const jobs: JobDef[] = [];
  const def = svc.defs.byName(org.id, 'script');
  if (def) {
    for (const record of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
      const job = jobOfRecord(record._id, record.doc);
      if (job) jobs.push(job);
    }
  }
  byOrg.set(org.id, { generation, jobs });
  return jobs;
}
