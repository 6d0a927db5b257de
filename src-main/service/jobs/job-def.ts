/** What a job is, from a `type: "job"` record (registry.ts) or a library's `@job` (decorated.ts), and its schedule. */
import { Cron } from 'croner';
import { fault } from '../../../src-shared/faults.js';

export interface JobDef {
  /** The job's key in `job_runs`: its script record's `_id` (a library's job: `<_id>:<Class.method>`). */
  key: string;
  scriptId: string;
  label: string;
  cron: string;
  /** Run as this account (`_id` or email); absent: anonymous, as the original runs jobs. */
  principal?: string;
  source: string;
  schedule: Cron;
  /** A library's decorated method (`Class.method`); absent for job records. */
  handler?: string;
  /** Whether it runs on its schedule (the table holds active jobs only; the console lists all). */
  active: boolean;
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
