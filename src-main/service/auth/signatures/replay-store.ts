import type { Db } from '../../db/open.js';
import { fault } from '../../../../src-shared/faults.js';
import { statements, type Statements } from '../../db/statements.js';

/**
 * How many nonces one app may have remembered at once. When an app's share is full, its new signed
 * requests are refused rather than an old nonce forgotten (forgetting would reopen the replay window
 * for it); other apps are not affected, since each has its own share.
 *
 * Sized for a busy app: a nonce lives up to twice the ±15-minute timestamp window, so a million
 * lets one app sustain about 550 signed requests a second (100,000 allowed only 55, which the bench
 * alone exceeds), at a worst case of roughly 100 MB of rows per app.
 */
export const MAX_REPLAY_NONCES_PER_APP = 1_000_000;

export type ReplayVerdict = 'fresh' | 'replayed';

/** How often, at most, the hot path forgets expired entries (service-clock ms); see `remember`. */
export const REPLAY_PRUNE_INTERVAL_MS = 1000;

/**
 * Remembers the nonce of every accepted signed request, per app, until the request could no longer
 * pass the timestamp check, in the `replay_entries` table, so a restart does not reopen the window.
 *
 * Only nonces: a version-1 signature covers just path, method and millisecond, so two different
 * legitimate requests can share one (decisions §4, revised). Rows are keyed `<appId>:<nonce>`;
 * triggers keep each app's number of rows in `replay_counts` (migration 7), so the share check
 * reads one row instead of counting the app's nonces.
 */
export class ReplayStore {
  private readonly sql: Statements;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly maxPerApp: number = MAX_REPLAY_NONCES_PER_APP,
  ) {
    this.sql = statements(db);
  }

  /**
   * Records a request's nonce, live until `expires` (inclusive, Unix ms). Throws `throttled.policy`
   * when this app's share is full.
   *
   * Every signed request pays this, so the usual case is one autocommit statement: an INSERT that
   * happens only while the app's counted rows are under its share, and that takes over a row of the
   * same nonce only when that row has expired. The primary key still decides between concurrent
   * requests, in this process or another, so of two identical requests exactly one is 'fresh'.
   * Expired rows are deleted at most once per REPLAY_PRUNE_INTERVAL_MS, so the count may include
   * some; whenever the INSERT does not happen (replayed, or the count is at the share), the answer
   * is decided again in one IMMEDIATE transaction after pruning, so neither a false replay nor a
   * false 'full' can come from an expired row.
   */
  remember(appId: number, nonce: string, now: number, expires: number): ReplayVerdict {
    if (now - this.lastPrune >= REPLAY_PRUNE_INTERVAL_MS) this.prune(now);
    // Nonces are case-insensitive (the pattern is).
    const value = `${appId}:${nonce.toLowerCase()}`;
    const taken = this.sql
      .fixed(
        `INSERT INTO replay_entries (kind, value, app_id, expires)
           SELECT 'nonce', ?, ?, ? WHERE coalesce((SELECT n FROM replay_counts WHERE app_id = ?), 0) < ?
           ON CONFLICT (kind, value) DO UPDATE SET expires = excluded.expires WHERE replay_entries.expires < ?
           RETURNING 1`,
      )
      .pluck()
      .get(value, appId, expires, appId, this.maxPerApp, now);
    if (taken !== undefined) return 'fresh';
    return this.decideAfterPruning(appId, value, now, expires);
  }

  /** The slow path of `remember`: the write lock first, so no other process slips in between. */
  private decideAfterPruning(appId: number, value: string, now: number, expires: number): ReplayVerdict {
    return this.db
      .transaction((): ReplayVerdict => {
        this.prune(now);
        const live = this.sql.fixed("SELECT 1 FROM replay_entries WHERE kind = 'nonce' AND value = ?").get(value);
        if (live !== undefined) return 'replayed';
        if (this.countedNonces(appId) >= this.maxPerApp) {
          throw fault('throttled', 'policy', {
            reason:
              'This application has too many signed requests in the replay window; the service refuses its new ones until older ones expire.',
          });
        }
        this.sql
          .fixed('INSERT INTO replay_entries (kind, value, app_id, expires) VALUES (?, ?, ?, ?)')
          .run('nonce', value, appId, expires);
        return 'fresh';
      })
      .immediate();
  }

  /** Forgets entries whose window has passed. */
  prune(now: number): number {
    this.lastPrune = now;
    return this.sql.fixed('DELETE FROM replay_entries WHERE expires < ?').run(now).changes;
  }

  /** Forgets every entry of an app (the app was deleted). */
  forgetApp(appId: number): void {
    this.sql.fixed('DELETE FROM replay_entries WHERE app_id = ?').run(appId);
  }

  /** Nonces an app has remembered, counted row by row (the kept count must agree; see tests). */
  liveNonces(appId: number): number {
    return (
      this.sql
        .fixed("SELECT count(*) AS n FROM replay_entries WHERE kind = 'nonce' AND value >= ? AND value < ?")
        .get(`${appId}:`, `${appId};`) as { n: number }
    ).n;
  }

  /** Nonces an app has remembered, as the triggers keep count (one row read). */
  countedNonces(appId: number): number {
    return (
      (this.sql.fixed('SELECT n FROM replay_counts WHERE app_id = ?').pluck().get(appId) as number | undefined) ?? 0
    );
  }

  /** Rows remembered (after pruning, all of them are live). */
  liveRows(): number {
    return (this.sql.fixed('SELECT count(*) AS n FROM replay_entries').get() as { n: number }).n;
  }
}
