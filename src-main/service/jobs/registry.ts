/**
 * The org's job table: script records of `type: "job"` (`configuration: {cron, principal}`,
 * active unless `active: false`) and active libraries' `@job` methods (decorated.ts), each with its
 * schedule parsed once. Schedules are five-field cron expressions (minute hour day-of-month month
 * day-of-week, as the original requires), read by `croner` in UTC; the table is rebuilt only when
 * the org's script records change (scripting/script-generation.ts).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { scriptGeneration } from '../scripting/script-generation.js';
import { parseSchedule, type JobDef } from './job-def.js';
import { decoratedJobs } from './decorated.js';

export { nextSlot, parseSchedule, type JobDef } from './job-def.js';

/** A job record's definition, or undefined when it is not an active, well-formed job. */
export function jobOfRecord(_id: string, doc: Doc): JobDef | undefined {
  if (doc.type !== 'job' || doc.active === false || typeof doc.script !== 'string') return undefined;
  const c = (doc.configuration ?? {}) as Record<string, unknown>;
  let schedule;
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
    active: true,
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
  jobs.push(...decoratedJobs(svc, org).filter((j) => j.active));
  byOrg.set(org.id, { generation, jobs });
  return jobs;
}
