import type { Db } from '../../db/open.js';
import { fault } from '../../../../src-shared/faults.js';
import { statements, type Statements } from '../../db/statements.js';

/**
 * How many nonces one app may have remembered at once. When an app's share is full, its new signed
 * requests are refused rather than an old nonce forgotten (forgetting would reopen the replay window
 * for it); other apps are not affected, since each has its own share.
 */
export const MAX_REPLAY_NONCES_PER_APP = 100_000;

export type ReplayVerdict = 'fresh' | 'replayed';

const isPrimaryKeyConflict = (err: unknown): boolean =>
  (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

/**
 * Remembers the nonce of every accepted signed request, per app, until the request could no longer
 * pass the timestamp check, in the `replay_entries` table, so a restart does not reopen the window.
 *
 * Only nonces: a version-1 signature covers just path, method and millisecond, so two different
 * legitimate requests can share one (decisions §4, revised). Rows are keyed `<appId>:<nonce>`, so
 * one app's share is a range of the primary key and is counted without a table scan.
 */
export class ReplayStore {
  private readonly sql: Statements;

  constructor(
    private readonly db: Db,
    private readonly maxPerApp: number = MAX_REPLAY_NONCES_PER_APP,
  ) {
    this.sql = statements(db);
  }

  /**
   * Records a request's nonce, live until `expires` (inclusive, Unix ms). Atomic: the INSERT relies
   * on the primary key, so of two identical concurrent requests exactly one is 'fresh'. Throws
   * `throttled.policy` when this app's share is full.
   */
  remember(appId: number, nonce: string, now: number, expires: number): ReplayVerdict {
    // IMMEDIATE takes the write lock first, so another process cannot slip in between the
    // capacity check and the insert.
    return this.db
      .transaction((): ReplayVerdict => {
        this.prune(now);
        if (this.liveNonces(appId) >= this.maxPerApp) {
          throw fault('throttled', 'policy', {
            reason:
              'This application has too many signed requests in the replay window; the service refuses its new ones until older ones expire.',
          });
        }
        try {
          // Nonces are case-insensitive (the pattern is).
          this.sql
            .fixed('INSERT INTO replay_entries (kind, value, app_id, expires) VALUES (?, ?, ?, ?)')
            .run('nonce', `${appId}:${nonce.toLowerCase()}`, appId, expires);
        } catch (err) {
          if (isPrimaryKeyConflict(err)) return 'replayed';
          throw err;
        }
        return 'fresh';
      })
      .immediate();
  }

  /** Forgets entries whose window has passed. */
  prune(now: number): number {
    return this.sql.fixed('DELETE FROM replay_entries WHERE expires < ?').run(now).changes;
  }

  /** Forgets every entry of an app (the app was deleted). */
  forgetApp(appId: number): void {
    this.sql.fixed('DELETE FROM replay_entries WHERE app_id = ?').run(appId);
  }

  /** Nonces an app has remembered: a range scan of the primary key (';' sorts right after ':'). */
  liveNonces(appId: number): number {
    return (
      this.sql
        .fixed("SELECT count(*) AS n FROM replay_entries WHERE kind = 'nonce' AND value >= ? AND value < ?")
        .get(`${appId}:`, `${appId};`) as { n: number }
    ).n;
  }

  /** Rows remembered (after pruning, all of them are live). */
  liveRows(): number {
    return (this.sql.fixed('SELECT count(*) AS n FROM replay_entries').get() as { n: number }).n;
  }
}
