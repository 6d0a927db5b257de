/** A job as `GET /jobs` answers it (issue 41): the service writes it, the console reads it. */
export interface JobSummary {
  /** The script record's `_id` (a library's, for its `@job` methods). */
  _id: string;
  /** A library's decorated method (`Class.method`); absent for job records. */
  handler?: string;
  label: string;
  cron: string;
  principal: string | null;
  active: boolean;
  /** Why the schedule cannot run (a record saved before the schedule rules), or null. */
  problem: string | null;
  nextRun: string | null;
  lastRuns: {
    kind: 'schedule' | 'manual';
    started: string;
    ended: string | null;
    outcome: 'ok' | 'fault' | null;
    errCode: string | null;
  }[];
}

/** The org's cap on job runs, beside the list `GET /jobs` answers (`cap`). */
export interface JobCap {
  /** Runs the org's jobs may start in any 24 hours (scheduled and "run now" alike). */
  maxJobRunsPerDay: number;
  /** How many more may start now, counting the runs of the last 24 hours. */
  runsLeft: number;
}
