/**
 * Stored tokens (migration 4, table `tokens`): permanent and limited-use tokens carry a `jti` and
 * a row here, so they can be listed, counted against the per-subject limit, revoked, and — for
 * `service/cnt` — used up. Ephemeral tokens never touch this table.
 */
import { fault } from '../../../../src-shared/faults.js';
import type { Db } from '../../db/open.js';
import type { DataVersion } from '../../db/data-version.js';
import { statements, type Statements } from '../../db/statements.js';

export interface StoredTokenRow {
  jti: string;
  org_id: number;
  app_id: number;
  account_id: string;
  kid: string;
  uses_remaining: number | null;
  times_authorized: number;
  last_authorized: number | null;
  expires_at: number | null;
  revoked: number;
  created: number;
}

export interface NewStoredToken {
  jti: string;
  orgId: number;
  appId: number;
  accountId: string;
  kid: string;
  usesRemaining: number | null;
  /** Unix ms, or null for permanent tokens. */
  expiresAt: number | null;
  created: number;
}

/** Who a token belongs to: the limit, the list and revoke-all are per account and app. */
export interface TokenSubject {
  orgId: number;
  appId: number;
  accountId: string;
}

/**
 * A token still counts (and still works) while it is not revoked, not expired, not used up and
 * made with the app's current key; tokens of a rotated key are dead even if their row is not.
 */
const LIVE = `revoked = 0 AND (expires_at IS NULL OR expires_at > ?) AND (uses_remaining IS NULL OR uses_remaining > 0)
  AND kid = ?`;

export class TokenStore {
  private readonly sql: Statements;

  /** @param versions Told about revocations, so verified-token caches drop their entries. */
  constructor(
    private readonly db: Db,
    private readonly versions?: DataVersion,
  ) {
    this.sql = statements(db);
  }

  /**
   * Inserts a token unless its subject already holds `limit` live tokens. Count and insert run in
   * one IMMEDIATE transaction, so concurrent creations (even from another connection) cannot pass
   * the limit together. Throws `accessDenied.maxJwtPerSubject`.
   */
  insertWithinLimit(token: NewStoredToken, limit: number, now: number): void {
    this.db
      .transaction(() => {
        const { n } = this.sql
          .fixed(`SELECT count(*) AS n FROM tokens WHERE org_id = ? AND app_id = ? AND account_id = ? AND ${LIVE}`)
          .get(token.orgId, token.appId, token.accountId, now, token.kid) as { n: number };
        if (n >= limit) {
          throw fault('accessDenied', 'maxJwtPerSubject', {
            reason: `The account already holds ${n} permanent or limited-use tokens for this app; the limit is ${limit}. Revoke one first.`,
          });
        }
        this.sql
          .fixed(
            `INSERT INTO tokens (jti, org_id, app_id, account_id, kid, uses_remaining, times_authorized, last_authorized,
               expires_at, revoked, created) VALUES (?, ?, ?, ?, ?, ?, 0, NULL, ?, 0, ?)`,
          )
          .run(
            token.jti,
            token.orgId,
            token.appId,
            token.accountId,
            token.kid,
            token.usesRemaining,
            token.expiresAt,
            token.created,
          );
      })
      .immediate();
  }

  /** Live tokens of one subject for one app, newest first. */
  listLive(subject: TokenSubject, currentKid: string, now: number): StoredTokenRow[] {
    return this.sql
      .fixed(
        `SELECT * FROM tokens WHERE org_id = ? AND app_id = ? AND account_id = ? AND ${LIVE} ORDER BY created DESC, rowid DESC`,
      )
      .all(subject.orgId, subject.appId, subject.accountId, now, currentKid) as StoredTokenRow[];
  }

  /** Revokes one token of an account; false when the account has no such (unrevoked) token. */
  revoke(orgId: number, accountId: string, jti: string): boolean {
    this.versions?.bump();
    return (
      this.sql
        .fixed('UPDATE tokens SET revoked = 1 WHERE jti = ? AND org_id = ? AND account_id = ? AND revoked = 0')
        .run(jti, orgId, accountId).changes > 0
    );
  }

  /** Revokes every token of a subject for an app; returns how many were revoked. */
  revokeAll(subject: TokenSubject): number {
    this.versions?.bump();
    return this.sql
      .fixed('UPDATE tokens SET revoked = 1 WHERE org_id = ? AND app_id = ? AND account_id = ? AND revoked = 0')
      .run(subject.orgId, subject.appId, subject.accountId).changes;
  }

  /**
   * Records one authentication with a stored token. For limited-use tokens the decrement is one
   * conditional UPDATE, so N concurrent uses of a token allowing k succeed exactly k times, on any
   * number of connections. Returns false when the token is unknown, someone else's, revoked or
   * used up.
   */
  consume(jti: string, subject: TokenSubject, limited: boolean, now: number): boolean {
    const usesClause = limited ? 'AND uses_remaining > 0' : 'AND uses_remaining IS NULL';
    const decrement = limited ? 'uses_remaining = uses_remaining - 1, ' : '';
    const row = this.sql
      .fixed(
        `UPDATE tokens SET ${decrement}times_authorized = times_authorized + 1, last_authorized = ?
         WHERE jti = ? AND org_id = ? AND app_id = ? AND account_id = ? AND revoked = 0 ${usesClause}
         RETURNING jti`,
      )
      .get(now, jti, subject.orgId, subject.appId, subject.accountId);
    return row !== undefined;
  }

  byJti(jti: string): StoredTokenRow | undefined {
    return this.sql.fixed('SELECT * FROM tokens WHERE jti = ?').get(jti) as StoredTokenRow | undefined;
  }

  /**
   * Forgets rows of tokens that can never work again: revoked, expired or used up (housekeeping).
   * Safe to forget: a token whose jti has no row is refused like a revoked one.
   */
  pruneDead(now: number): number {
    const changes = this.sql
      .fixed(
        `DELETE FROM tokens WHERE revoked = 1 OR (expires_at IS NOT NULL AND expires_at <= ?)
           OR (uses_remaining IS NOT NULL AND uses_remaining <= 0)`,
      )
      .run(now).changes;
    if (changes > 0) this.versions?.bump();
    return changes;
  }
}
