import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { statements, type Statements } from '../../db/statements.js';

/** What a one-time account token is for; part of its stored hash, so one kind never opens another. */
export type AccountTokenPurpose = 'reset' | 'verify';

/** Password-reset links live one hour; verification links a week. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const VERIFY_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;

export type ConsumeResult = { ok: true; accountId: string } | { ok: false; why: 'unknown' | 'expired' };

const storedHash = (purpose: AccountTokenPurpose, token: string): string =>
  `${purpose}:${createHash('sha256').update(token).digest('base64url')}`;

/**
 * One-time account tokens (password reset and email verification) in `password_resets`. Only a
 * purpose-prefixed SHA-256 of the token is stored: the token is 32 random bytes, so a fast hash is
 * enough, and a copy of the database yields no usable link. A token is valid while
 * `now <= expires`, and is used at most once.
 */
export class AccountTokenRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  issue(purpose: AccountTokenPurpose, orgId: number, accountId: string, ttlMs: number, now: number): string {
    const token = randomBytes(32).toString('base64url');
    this.sql
      .fixed('INSERT INTO password_resets (token_hash, org_id, account_id, expires) VALUES (?, ?, ?, ?)')
      .run(storedHash(purpose, token), orgId, accountId, now + ttlMs);
    return token;
  }

  /** Marks the token used and returns its account; an unknown, used or expired token is refused. */
  consume(purpose: AccountTokenPurpose, orgId: number, token: string, now: number): ConsumeResult {
    const hash = storedHash(purpose, token);
    return this.db
      .transaction((): ConsumeResult => {
        const row = this.sql
          .fixed('SELECT account_id, expires, used FROM password_resets WHERE token_hash = ? AND org_id = ?')
          .get(hash, orgId) as { account_id: string; expires: number; used: number } | undefined;
        if (!row || row.used !== 0) return { ok: false, why: 'unknown' };
        if (now > row.expires) return { ok: false, why: 'expired' };
        this.sql.fixed('UPDATE password_resets SET used = 1 WHERE token_hash = ?').run(hash);
        return { ok: true, accountId: row.account_id };
      })
      .immediate(); // the write lock before the read: another process cannot use the token in between
  }

  /** Voids every outstanding token of one purpose for an account (after a reset, say). */
  voidAll(purpose: AccountTokenPurpose, orgId: number, accountId: string): void {
    this.sql
      .fixed('UPDATE password_resets SET used = 1 WHERE org_id = ? AND account_id = ? AND token_hash LIKE ?')
      .run(orgId, accountId, `${purpose}:%`);
  }

  /** Forgets tokens that expired before `before` (housekeeping). */
  prune(before: number): number {
    return this.sql.fixed('DELETE FROM password_resets WHERE expires < ?').run(before).changes;
  }
}
