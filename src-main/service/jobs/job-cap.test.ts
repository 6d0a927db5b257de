/**
 * The org's cap on job runs (the original's maxJobRunsPerDay): schedules that would pass it are
 * refused at save; the cap's value, its floor and ceiling, and the operator's way to set it.
 */
import { describe, expect, it } from 'vitest';
import { parseSchedule } from './job-def.js';
import { assertScheduleWithinCap } from './job-cap.js';
import {
  DEFAULT_JOB_RUNS_PER_DAY,
  jobRunsPerDayOf,
  MAX_JOB_RUNS_PER_DAY,
  MIN_ALLOWED_JOB_RUNS_PER_DAY,
  withJobRunsPerDay,
} from '../scripting/org-limits.js';
import type { Org } from '../orgs/orgs.js';

const NOON = Date.parse('2026-01-15T12:00:00.000Z');
const check = (cron: string, cap: number, now = NOON) =>
  assertScheduleWithinCap(parseSchedule(cron), cap, now, 'configuration.cron', 'The schedule');
const refused = expect.objectContaining({
  fault: expect.objectContaining({ errCode: 'service.accessDenied.maxJobsPerDay', path: 'configuration.cron' }),
});

describe('a schedule against the cap', () => {
  it('refuses a schedule that runs more than the cap in 24 hours', () => {
    expect(() => check('* * * * *', 100)).toThrow(refused);
    expect(() => check('*/10 * * * *', 100)).toThrow(refused); // 144 a day
    expect(() => check('*/15 * * * *', 95)).toThrow(refused); // 96 a day
  });

  it('accepts a schedule within the cap, exactly at it, and anything under a cap of a minute a day', () => {
    expect(() => check('*/15 * * * *', 100)).not.toThrow();
    expect(() => check('*/15 * * * *', 96)).not.toThrow();
    expect(() => check('0 * * * *', 24)).not.toThrow(); // 25 runs span 24 hours exactly
    expect(() => check('0 3 * * *', 24)).not.toThrow();
    expect(() => check('* * * * *', 1440)).not.toThrow();
  });

  it('finds the busy window wherever it falls in the next two days, also across midnight', () => {
    // 120 runs from 23:00 to 00:59: at noon the next run is at 23:00, the busy hours follow.
    expect(() => check('* 0,23 * * *', 100)).toThrow(refused);
    // One busy hour a week (Thursdays at 23:00, today): 60 runs.
    expect(() => check('* 23 * * 4', 100)).not.toThrow();
    expect(() => check('* 23 * * 4', 59)).toThrow(refused);
  });
});

describe('the cap of an org', () => {
  const orgWith = (scriptLimits?: Record<string, number>) => ({ settings: { scriptLimits } }) as unknown as Org;

  it('is the default unless the operator set it, never under the floor nor over the ceiling', () => {
    expect(jobRunsPerDayOf(orgWith())).toBe(DEFAULT_JOB_RUNS_PER_DAY);
    expect(jobRunsPerDayOf(orgWith({ timeoutMs: 300 }))).toBe(DEFAULT_JOB_RUNS_PER_DAY);
    expect(jobRunsPerDayOf(orgWith({ maxJobRunsPerDay: 100 }))).toBe(100);
    expect(jobRunsPerDayOf(orgWith({ maxJobRunsPerDay: 0 }))).toBe(MIN_ALLOWED_JOB_RUNS_PER_DAY);
    expect(jobRunsPerDayOf(orgWith({ maxJobRunsPerDay: 1e12 }))).toBe(MAX_JOB_RUNS_PER_DAY);
    expect(jobRunsPerDayOf(orgWith({ maxJobRunsPerDay: 2.5 }))).toBe(DEFAULT_JOB_RUNS_PER_DAY);
  });

  it('is set by the operator as an integer from the floor to the ceiling, keeping the other limits', () => {
    expect(withJobRunsPerDay(orgWith({ timeoutMs: 300 }).settings, '100')).toEqual({
      timeoutMs: 300,
      maxJobRunsPerDay: 100,
    });
    for (const bad of ['0', '23', '100001', '2.5', '-5', 'many', '', '1e3']) {
      expect(() => withJobRunsPerDay(orgWith().settings, bad), bad).toThrow(
        expect.objectContaining({
          fault: expect.objectContaining({ errCode: 'service.validation.outOfRange', path: 'maxJobRunsPerDay' }),
        }),
      );
    }
  });
});
