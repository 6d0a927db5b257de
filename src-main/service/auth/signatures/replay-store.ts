import type { Db } from '../../db/open.js';
import { fault } from '../../../../src-shared/faults.js';
import { statements, type Statements } from '../../db/statements.js';

/**
 * How many signed requests may be remembered at once. Each takes two rows (its nonce and its
 * signature). When the store is full, new signed requests are refused rather than an old entry
 * forgotten: forgetting would reopen the replay window for that entry.
 */
export const MAX_REPLAY_REQUESTS = 100_000;

export type ReplayVerdict = 'fresh' | 'nonceReplayed' | 'signatureReplayed';

const isPrimaryKeyConflict = (err: unknown): boolean =>
  (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

/**
 * Remembers the nonce and the signature of every accepted signed request until it could no longer
 * pass the timestamp check, in the `replay_entries` table, so a restart does not reopen the window.
 * Entries are scoped by app id so one app's nonces never block another's.
 */
export class ReplayStore {
  private readonly maxRows: number;

  private readonly sql: Statements;

  constructor(
    private readonly db: Db,
    maxRequests: number = MAX_REPLAY_REQUESTS,
  ) {
    this.sql = statements(db);
    this.maxRows = maxRequests * 2;
  }

  /**
   * Records a request's nonce and signature, live until `expires` (inclusive, Unix ms). Atomic:
   * the INSERTs rely on the primary key, so of two identical concurrent requests exactly one is
   * 'fresh'. A replayed request records nothing. Throws `throttled.policy` when the store is full.
   */
  remember(appId: number, nonce: string, signature: string, now: number, expires: number): ReplayVerdict {
    // IMMEDIATE takes the write lock first, so another process cannot slip in between the
    // capacity check and the inserts.
    return this.db
      .transaction((): ReplayVerdict => {
        this.prune(now);
        if (this.liveRows() + 2 > this.maxRows) {
          throw fault('throttled', 'policy', {
            reason:
              'Too many signed requests in the replay window; the service refuses new ones until older ones expire.',
          });
        }
        const insert = this.sql.fixed('INSERT INTO replay_entries (kind, value, app_id, expires) VALUES (?, ?, ?, ?)');
        // Nonces are case-insensitive (the pattern is); hex signatures likewise.
        const nonceKey = `${appId}:${nonce.toLowerCase()}`;
        const signatureKey = `${appId}:${signature.toLowerCase()}`;
        try {
          insert.run('nonce', nonceKey, appId, expires);
        } catch (err) {
          if (isPrimaryKeyConflict(err)) return 'nonceReplayed';
          throw err;
        }
        try {
          insert.run('signature', signatureKey, appId, expires);
        } catch (err) {
          if (!isPrimaryKeyConflict(err)) throw err;
          // Undo the nonce insert: a rejected request leaves no trace.
          this.sql.fixed('DELETE FROM replay_entries WHERE kind = ? AND value = ?').run('nonce', nonceKey);
          return 'signatureReplayed';
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

  /** Rows remembered (after pruning, all of them are live). */
  liveRows(): number {
    return (this.sql.fixed('SELECT count(*) AS n FROM replay_entries').get() as { n: number }).n;
  }
}
