/**
 * The job scheduler (issue 41): runs each org's jobs on their cron schedules, on the service's
 * clock (clock.ts; tests move a ManualClock and call `tick`). Started with the server and stopped
 * with it (server.ts), like housekeeping.
 *
 * - A tick runs, for each job, the latest slot that fell since the previous tick — one run even if
 *   the process was busy across several slots. Slots that fell while no scheduler ran (the service
 *   was stopped) are not replayed: the first tick counts from when the scheduler started.
 * - A run is claimed in the database before it starts (job-runs.ts), so with several service
 *   processes on one data folder each slot runs once, and a job whose last run has not ended skips
 *   its next slots (no overlapping runs).
 * - Runs have the script limits of any run and wait in the org's fair queue (run-job.ts).
 * - The org's jobs start at most `maxJobRunsPerDay` runs in any 24 hours, scheduled and "run now"
 *   alike, counted in the claim's transaction (job-cap.ts); a run over it is refused and logged.
 */
import { randomBytes } from 'node:crypto';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { jobRunsPerDayOf, limitsForOrg } from '../scripting/org-limits.js';
import { DEFAULT_SCRIPT_LIMITS } from '../scripting/limits.js';
import type { RunResult } from '../scripting/run-types.js';
import { jobOfRecord, nextSlot, orgJobs, type JobDef } from './registry.js';
import { refuseOverCap, runJob } from './run-job.js';
import { capWindowStart, MAX_JOBS_PER_DAY_ERRCODE } from './job-cap.js';
import { decoratedJobs } from './decorated.js';
import type { JobRunKind } from './job-runs.js';

const MINUTE = 60_000;
/** How often the scheduler looks for due slots (a cron's precision is a minute). */
export const JOB_TICK_MS = 1000;
/** A tick never looks further back than this (a process asleep for days replays nothing). */
const MAX_LOOKBACK_MS = 24 * 60 * 60_000;
/** Slots stepped through per job and tick (a minute schedule over the look-back). */
const MAX_SLOTS_PER_TICK = 1500;
/** Slots a "run now" tries after its own millisecond's, taken by runs that already ended in it. */
const MANUAL_SLOT_TRIES = 100;

/** The latest slot of `job` in (from, to], or undefined. */
export function latestSlot(job: JobDef, from: number, to: number): number | undefined {
  let at = Math.max(from, to - MAX_LOOKBACK_MS);
  let latest: number | undefined;
  for (let i = 0; i < MAX_SLOTS_PER_TICK; i++) {
    const next = nextSlot(job.schedule, at);
    if (next === undefined || next > to) break;
    latest = at = next;
  }
  return latest;
}

export class JobScheduler {
  /** Who claims runs (a process and an instance in it), as `job_runs.runner` shows. */
  readonly runnerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private lastTick: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly svc: Service,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Starts ticking every `intervalMs`; slots before now are not run. The timer keeps no process alive. */
  start(intervalMs = JOB_TICK_MS): void {
    if (this.timer) return;
    this.lastTick = this.svc.clock.now();
    this.timer = setInterval(() => this.tickSafely(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs started and not finished yet. */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private tickSafely(): void {
    try {
      this.tick();
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * Claims and starts the runs due since the previous tick (the first tick of a scheduler never
   * started only sets its starting point); answers the runs it started.
   */
  tick(): Promise<RunResult>[] {
    const now = this.svc.clock.now();
    const from = this.lastTick;
    this.lastTick = now;
    if (from === undefined || now <= from) return [];
    // Slots fall on whole minutes: a tick within the minute of the previous one has nothing to run
    // (and reads nothing: a frozen test clock or a quiet minute costs no statement).
    if (Math.floor(now / MINUTE) === Math.floor(from / MINUTE)) return [];
    const started: Promise<RunResult>[] = [];
    for (const org of this.svc.orgs.list()) {
      for (const job of orgJobs(this.svc, org)) {
        const slot = latestSlot(job, from, now);
        if (slot === undefined) continue;
        const run = this.claimAndRun(org, job, 'schedule', slot, now);
        if (typeof run !== 'string') started.push(run);
      }
    }
    return started;
  }

  /**
   * "Run now": the job script `scriptId` of the org, whether or not it is active or due; refused
   * while a run of it has not ended.
   */
  runNow(org: Org, scriptId: string, handler?: string): Promise<RunResult> {
    const def = this.svc.defs.byName(org.id, 'script');
    const record = def ? this.svc.store.get(org.id, def, scriptId) : undefined;
    const job =
      record?.doc.type === 'library'
        ? libraryJob(this.svc, org, scriptId, handler)
        : record
          ? jobOfRecord(record._id, { ...record.doc, active: true })
          : undefined;
    if (!job) {
      throw fault('notFound', 'job', { reason: `No job script ${scriptId.slice(0, 64)} with a valid schedule.` });
    }
    const now = this.svc.clock.now();
    // A manual run's slot is its millisecond. One that ended within that millisecond holds it (a
    // double click on a job that returns at once), and is no reason to refuse: the next is free.
    for (let slot = now; slot < now + MANUAL_SLOT_TRIES; slot++) {
      const run = this.claimAndRun(org, job, 'manual', slot, now);
      if (run === 'running') break;
      if (run !== 'taken') return run;
    }
    throw fault('conflict', 'job.running', { reason: `Job ${job.label} is running; try again when it ends.` });
  }

  /** Starts the run of `slot`, or says why not: a run of the job has not ended, or the slot is taken. */
  private claimAndRun(
    org: Org,
    job: JobDef,
    kind: JobRunKind,
    slot: number,
    now: number,
  ): Promise<RunResult> | 'running' | 'taken' {
    const limits = { ...DEFAULT_SCRIPT_LIMITS, ...limitsForOrg(org) };
    // A row without an end older than the run could last (its process died) does not block.
    const staleMs = limits.timeoutMs + 60_000;
    const max = jobRunsPerDayOf(org);
    const cap = { max, since: capWindowStart(now), errCode: MAX_JOBS_PER_DAY_ERRCODE };
    const answer = this.svc.jobRuns.claim(org.id, job.key, kind, slot, this.runnerId, now, staleMs, cap);
    if ('capped' in answer) return Promise.resolve(refuseOverCap(this.svc, org, job, max));
    if (!('claimed' in answer)) return answer.refused;
    const run = runJob(this.svc, org, job, answer.claimed);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }
}

/** A library's `@job` by its method (`Class.method`); without one, the library's only job. */
function libraryJob(svc: Service, org: Org, libraryId: string, handler: string | undefined): JobDef | undefined {
  const jobs = decoratedJobs(svc, org).filter((j) => j.scriptId === libraryId);
  if (handler !== undefined) return jobs.find((j) => j.handler === handler);
  return jobs.length === 1 ? jobs[0] : undefined;
}
