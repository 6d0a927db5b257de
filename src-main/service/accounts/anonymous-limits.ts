import { createHash } from 'node:crypto';
import { fault } from '../../../src-shared/faults.js';
import type { Db } from '../db/open.js';
import { statements, type Statements } from '../db/statements.js';
import type { Org } from '../orgs/orgs.js';
import { normaliseEmail } from './credentials.js';

/** The routes an anonymous caller can make the service write (and mail) through. */
export type AnonymousRequestKind = 'register' | 'passwordReset';

/** Counting windows are fixed, one hour long. */
export const ANONYMOUS_LIMIT_WINDOW_MS = 60 * 60_000;

interface Limit {
  key: string;
  max: number;
}

/**
 * Fixed-window request counters in `request_counters`, shared by every process on the data folder.
 *
 * Size stays bounded: a row lives one window and is pruned after, and the per-email rows of a
 * window are only created after the per-org count admitted the request, so an org holds at most
 * `anonymousRequestsPerOrg` of them per route and window whatever the caller invents. Emails are
 * stored as SHA-256 hashes: what strangers type is nobody's business.
 */
export class RequestCounterRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  /**
   * Counts one request against every limit, in order, under the write lock (so two processes
   * cannot both take the last unit). False, with nothing more counted, at the first limit reached.
   */
  take(limits: readonly Limit[], windowMs: number, now: number): boolean {
    return this.db
      .transaction((): boolean => {
        for (const { key, max } of limits) {
          const row = this.sql.fixed('SELECT count, window_start FROM request_counters WHERE key = ?').get(key) as
            { count: number; window_start: number } | undefined;
          const fresh = !row || now >= row.window_start + windowMs;
          const count = fresh ? 0 : row.count;
          if (count >= max) return false;
          const start = fresh ? now : row.window_start;
          this.sql
            .fixed(
              `INSERT INTO request_counters (key, count, window_start, expires) VALUES (?, ?, ?, ?)
               ON CONFLICT (key) DO UPDATE SET count = excluded.count, window_start = excluded.window_start,
                 expires = excluded.expires`,
            )
            .run(key, count + 1, start, start + windowMs);
        }
        return true;
      })
      .immediate();
  }

  /** Forgets counters whose window ended before `now` (housekeeping). */
  prune(now: number): number {
    return this.sql.fixed('DELETE FROM request_counters WHERE expires <= ?').run(now).changes;
  }

  count(): number {
    return (this.sql.fixed('SELECT count(*) AS n FROM request_counters').get() as { n: number }).n;
  }
}

export const emailHash = (email: string): string =>
  createHash('sha256').update(normaliseEmail(email)).digest('base64url');

/**
 * Counts an anonymous `register` or `request-password-reset` against the org's limits (per org,
 * then per email); `throttled.policy` beyond either (issue #13 item 9). The answer is the same
 * whether or not the email belongs to an account.
 */
export function limitAnonymousRequest(
  counters: RequestCounterRepository,
  org: Org,
  kind: AnonymousRequestKind,
  email: string,
  now: number,
): void {
  const admitted = counters.take(
    [
      { key: `${org.id}:${kind}:org`, max: org.settings.anonymousRequestsPerOrg },
      { key: `${org.id}:${kind}:email:${emailHash(email)}`, max: org.settings.anonymousRequestsPerEmail },
    ],
    ANONYMOUS_LIMIT_WINDOW_MS,
    now,
  );
  if (!admitted) {
    throw fault('throttled', 'policy', {
      reason: 'Too many requests of this kind for this email address or org; try again later.',
    });
  }
}
