import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { statements, type Statements } from '../../db/statements.js';

/** A new-location code lives ten minutes and allows five tries (docs/sessions.md, two-factor (a)). */
export const LOCATION_CODE_TTL_MS = 10 * 60_000;
export const LOCATION_CODE_MAX_ATTEMPTS = 5;

export type LocationCheck = 'ok' | 'wrong' | 'expired' | 'none';

const digest = (salt: string, code: string): Buffer =>
  createHash('sha256').update(salt).update(':').update(code).digest();

/**
 * Known locations (browser fingerprints an account has logged in from) and pending new-location
 * codes. Codes are stored salted and hashed; with six digits the hash only keeps them out of plain
 * view — the expiry and the attempt limit are what protect them.
 */
export class LocationRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  isKnown(orgId: number, accountId: string, fingerprint: string): boolean {
    return (
      this.sql
        .fixed('SELECT 1 FROM known_locations WHERE org_id = ? AND account_id = ? AND fingerprint = ?')
        .get(orgId, accountId, fingerprint) !== undefined
    );
  }

  remember(orgId: number, accountId: string, fingerprint: string, now: number): void {
    this.sql
      .fixed('INSERT OR IGNORE INTO known_locations (org_id, account_id, fingerprint, created) VALUES (?, ?, ?, ?)')
      .run(orgId, accountId, fingerprint, now);
  }

  /** Issues a fresh code for this account and fingerprint, replacing any pending one. */
  startVerification(orgId: number, accountId: string, fingerprint: string, now: number): string {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const salt = randomBytes(16).toString('base64url');
    this.sql
      .fixed(
        `INSERT OR REPLACE INTO location_verifications (org_id, account_id, fingerprint, code_hash, expires, attempts)
         VALUES (?, ?, ?, ?, ?, 0)`,
      )
      .run(
        orgId,
        accountId,
        fingerprint,
        `${salt}$${digest(salt, code).toString('base64url')}`,
        now + LOCATION_CODE_TTL_MS,
      );
    return code;
  }

  /**
   * Checks a code: valid while `now <= expires` and within the attempt limit; each try counts.
   * A correct code is consumed and the location remembered.
   */
  verify(orgId: number, accountId: string, fingerprint: string, code: string, now: number): LocationCheck {
    return this.db
      .transaction((): LocationCheck => {
        const key = [orgId, accountId, fingerprint] as const;
        const row = this.sql
          .fixed(
            'SELECT code_hash, expires, attempts FROM location_verifications WHERE org_id = ? AND account_id = ? AND fingerprint = ?',
          )
          .get(...key) as { code_hash: string; expires: number; attempts: number } | undefined;
        if (!row) return 'none';
        if (now > row.expires || row.attempts >= LOCATION_CODE_MAX_ATTEMPTS) return 'expired';
        this.sql
          .fixed(
            'UPDATE location_verifications SET attempts = attempts + 1 WHERE org_id = ? AND account_id = ? AND fingerprint = ?',
          )
          .run(...key);
        const [salt = '', hash = ''] = row.code_hash.split('$');
        const expected = Buffer.from(hash, 'base64url');
        const actual = digest(salt, code);
        if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'wrong';
        this.sql
          .fixed('DELETE FROM location_verifications WHERE org_id = ? AND account_id = ? AND fingerprint = ?')
          .run(...key);
        this.remember(orgId, accountId, fingerprint, now);
        return 'ok';
      })
      .immediate(); // the write lock before the read: attempts from another process count too
  }

  /** Forgets codes that expired before `now` (housekeeping). */
  pruneExpired(now: number): number {
    return this.sql.fixed('DELETE FROM location_verifications WHERE expires < ?').run(now).changes;
  }

  /** Forgets every known location and pending code of an account (an admin's two-factor reset). */
  forgetAccount(orgId: number, accountId: string): void {
    this.sql.fixed('DELETE FROM known_locations WHERE org_id = ? AND account_id = ?').run(orgId, accountId);
    this.sql.fixed('DELETE FROM location_verifications WHERE org_id = ? AND account_id = ?').run(orgId, accountId);
  }
}
