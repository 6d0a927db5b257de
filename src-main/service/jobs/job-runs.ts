/**
 * Job runs as rows (migration 11), the one place processes sharing a data folder agree on which of
 * them runs a job's slot: a run is claimed here, in one immediate transaction, before it starts.
 * The claim fails when another process claimed the same slot, or when the job has a run that has
 * not ended (no overlapping runs) — unless that run is older than `staleMs` (its process died).
 * The org's cap on runs a day (job-cap.ts) is counted in the same transaction, so processes sharing
 * the folder never start more runs between them than the cap.
 */
import type { Db } from '../db/open.js';
import { statements, type Statements } from '../db/statements.js';

export type JobRunKind = 'schedule' | 'manual';

export interface JobRun {
  id: number;
  job: string;
  kind: JobRunKind;
  slot: number;
  runner: string;
  started: number;
  ended: number | null;
  outcome: 'ok' | 'fault' | null;
  errCode: string | null;
  logId: string | null;
}

interface Row {
  id: number;
  job: string;
  kind: JobRunKind;
  slot: number;
  runner: string;
  started: number;
  ended: number | null;
  outcome: 'ok' | 'fault' | null;
  err_code: string | null;
  log_id: string | null;
}

const toRun = (r: Row): JobRun => ({
  id: r.id,
  job: r.job,
  kind: r.kind,
  slot: r.slot,
  runner: r.runner,
  started: r.started,
  ended: r.ended,
  outcome: r.outcome,
  errCode: r.err_code,
  logId: r.log_id,
});

/** The org's cap: at most `max` runs started after `since`; rows ended with `errCode` do not count. */
export interface RunCap {
  max: number;
  since: number;
  errCode: string;
}

/**
 * `claimed`: the run may start. `capped`: the slot is taken by a row already ended with the cap's
 * errCode (the run is refused, once, whichever process claimed it). `refused`: nothing written.
 */
export type ClaimAnswer = { claimed: JobRun } | { capped: JobRun } | { refused: 'taken' | 'running' };

/** The org's runs since a time, refused ones left out, counted up to a limit (exported for its plan's test). */
export const RUNS_SINCE_SQL = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM job_runs WHERE org_id = ? AND started > ?
  AND (err_code IS NULL OR err_code <> ?) LIMIT ?)`;

export class JobRunRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  /**
   * Claims `slot` of `job` for `runner` at `now`; refused when taken or when the job still runs;
   * capped when the org's runs since `cap.since` reached `cap.max`.
   */
  claim(
    orgId: number,
    job: string,
    kind: JobRunKind,
    slot: number,
    runner: string,
    now: number,
    staleMs: number,
    cap?: RunCap,
  ): ClaimAnswer {
    return this.db
      .transaction((): ClaimAnswer => {
        const running = this.sql
          .fixed('SELECT 1 FROM job_runs WHERE org_id = ? AND job = ? AND ended IS NULL AND started > ? LIMIT 1')
          .get(orgId, job, now - staleMs);
        if (running) return { refused: 'running' };
        if (cap && this.countSince(orgId, cap) >= cap.max) {
          const info = this.sql
            .fixed(
              `INSERT OR IGNORE INTO job_runs (org_id, job, kind, slot, runner, started, ended, outcome, err_code)
               VALUES (?, ?, ?, ?, ?, ?, ?, 'fault', ?)`,
            )
            .run(orgId, job, kind, slot, runner, now, now, cap.errCode);
          if (info.changes === 0) return { refused: 'taken' };
          return { capped: this.byId(Number(info.lastInsertRowid)) };
        }
        const info = this.sql
          .fixed('INSERT OR IGNORE INTO job_runs (org_id, job, kind, slot, runner, started) VALUES (?, ?, ?, ?, ?, ?)')
          .run(orgId, job, kind, slot, runner, now);
        if (info.changes === 0) return { refused: 'taken' };
        return { claimed: this.byId(Number(info.lastInsertRowid)) };
      })
      .immediate();
  }

  private byId(id: number): JobRun {
    return toRun(this.sql.fixed('SELECT * FROM job_runs WHERE id = ?').get(id) as Row);
  }

  /**
   * The org's runs started after `cap.since`, counted up to `cap.max` (the count stops there), on
   * the index `job_runs_org_started` (migration 13); runs refused over the cap do not count.
   */
  countSince(orgId: number, cap: RunCap): number {
    const row = this.sql.fixed(RUNS_SINCE_SQL).get(orgId, cap.since, cap.errCode, cap.max) as { n: number };
    return row.n;
  }

  finish(id: number, ended: number, outcome: 'ok' | 'fault', errCode: string | undefined, logId: string | undefined) {
    this.sql
      .fixed('UPDATE job_runs SET ended = ?, outcome = ?, err_code = ?, log_id = ? WHERE id = ?')
      .run(ended, outcome, errCode ?? null, logId ?? null, id);
  }

  /** The latest runs of a job, newest first. */
  recent(orgId: number, job: string, limit = 5): JobRun[] {
    return (
      this.sql
        .fixed('SELECT * FROM job_runs WHERE org_id = ? AND job = ? ORDER BY started DESC, id DESC LIMIT ?')
        .all(orgId, job, limit) as Row[]
    ).map(toRun);
  }

  /** Every run of the org's jobs (tests and the console's counts). */
  all(orgId: number): JobRun[] {
    return (this.sql.fixed('SELECT * FROM job_runs WHERE org_id = ? ORDER BY id').all(orgId) as Row[]).map(toRun);
  }

  /** Forgets runs of the org started before `before`. */
  prune(orgId: number, before: number): number {
    return this.sql.fixed('DELETE FROM job_runs WHERE org_id = ? AND started < ?').run(orgId, before).changes;
  }
}
