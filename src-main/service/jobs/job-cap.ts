/**
 * The org's cap on job runs (the original's `maxJobRunsPerDay`, docs/scripting.md#jobs), enforced
 * twice as the original does: a schedule that would run more than the cap in 24 hours is refused
 * when it is saved, and a run is refused when the org's jobs started the cap's number of runs in
 * the last 24 hours (job-runs.ts counts them inside the claim's transaction).
 */
import type { Cron } from 'croner';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { nextSlot } from './job-def.js';

const DAY_MS = 24 * 60 * 60_000;
/** A five-field cron runs at most once a minute: a cap of a day's minutes no schedule can pass. */
const MINUTES_PER_DAY = 24 * 60;

export const MAX_JOBS_PER_DAY_ERRCODE = 'service.accessDenied.maxJobsPerDay';

/** Where the run-time count starts: runs started after it count (the last 24 hours). */
export function capWindowStart(now: number): number {
  return now - DAY_MS;
}

/**
 * Throws `accessDenied.maxJobsPerDay` when `cap + 1` slots of `schedule` fall within 24 hours,
 * looking at the slots of the next two days from `now` (so a window across midnight counts too).
 * Bounded: a cap of a day's minutes or more is never passed, and below it at most two days of
 * minutes are read.
 */
export function assertScheduleWithinCap(schedule: Cron, cap: number, now: number, path: string, what: string): void {
  if (cap >= MINUTES_PER_DAY) return;
  const slots: number[] = [];
  let at = now;
  for (let i = 0; i < 2 * MINUTES_PER_DAY + 1; i++) {
    const next = nextSlot(schedule, at);
    if (next === undefined || (slots.length > 0 && next - slots[0]! > 2 * DAY_MS)) return;
    slots.push((at = next));
    if (slots.length > cap && next - slots[slots.length - 1 - cap]! < DAY_MS) {
      throw fault('accessDenied', 'maxJobsPerDay', {
        path,
        reason: `${what} runs more than ${cap} times in 24 hours, the org's maxJobRunsPerDay.`,
      });
    }
  }
}

/** The fault a run refused over the cap ends with (its log entry and the answer to "run now"). */
export function overCapFault(cap: number): FaultBody {
  return makeFault('accessDenied', 'maxJobsPerDay', {
    reason: `The org's jobs ran ${cap} times in the last 24 hours, its maxJobRunsPerDay; this run did not start.`,
  });
}
