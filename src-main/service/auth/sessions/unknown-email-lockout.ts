import type { Db } from '../../db/open.js';
import { statements, type Statements } from '../../db/statements.js';
import { emailHash } from '../../accounts/anonymous-limits.js';
import type { Admission } from './attempt-queue.js';

/**
 * Counted emails per org. Beyond, the one seen longest ago is forgotten (unlocked ones first): making
 * the service forget a chosen email's count costs an attacker this many slow password hashes.
 */
export const MAX_UNKNOWN_EMAILS_PER_ORG = 100_000;

/** Locked "until an administrator unlocks" (lockDuration 0); as for accounts. */
const LOCKED_FOREVER = Number.MAX_SAFE_INTEGER;

/**
 * Lock-out counts for login emails that belong to no account (issue #13 item 7). An account's
 * lock-out shows in the login fault (`accountLocked`); were unknown emails never locked, that fault
 * would tell who has an account. So failures against an unknown email are counted exactly as an
 * account's are (`credential-lockout.ts`): reserved before the hash, waited for through the same
 * attempt queue when every slot is held, locked at `lockAttempts` for `lockDuration`, cleared when
 * the lock runs out. Emails are stored hashed.
 */
export class UnknownEmailLockoutRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  /**
   * Like `beginCredentialAttempt`'s check: 'locked' when the email is locked, 'full' when its slots
   * are all held by guesses still being evaluated (nothing is written then), else one is reserved.
   * Slots all held while this process evaluates none of them (`inFlightHere` 0: left by a process
   * that died mid-check) are failures enough: the email locks, as an account would.
   */
  begin(
    orgId: number,
    email: string,
    settings: { lockAttempts: number; lockDuration: number },
    now: number,
    inFlightHere = 0,
  ): Admission {
    const { lockAttempts } = settings;
    const hash = emailHash(email);
    return this.db
      .transaction((): Admission => {
        const row = this.row(orgId, hash);
        if (row?.locked_until != null && row.locked_until > now) return 'locked';
        // A lock that ran out starts a clean count, as an account's does.
        const held = row && row.locked_until === null ? row.failed_attempts : 0;
        if (held >= lockAttempts) {
          if (inFlightHere > 0) return 'full';
          this.fail(orgId, email, settings, now);
          return 'locked';
        }
        if (!row) this.makeRoom(orgId);
        this.sql
          .fixed(
            `INSERT INTO unknown_email_lockouts (org_id, email_hash, failed_attempts, locked_until, last_attempt)
             VALUES (?, ?, ?, NULL, ?)
             ON CONFLICT (org_id, email_hash) DO UPDATE SET failed_attempts = excluded.failed_attempts,
               locked_until = NULL, last_attempt = excluded.last_attempt`,
          )
          .run(orgId, hash, held + 1, now);
        return 'admitted';
      })
      .immediate();
  }

  /**
   * The reserved guess failed (it always does: no password belongs to the email). As for an
   * account, it locks once the evaluated failures — the count less the `othersInFlight` guesses
   * still being evaluated — reach the limit. Returns whether the email is locked now.
   */
  fail(
    orgId: number,
    email: string,
    settings: { lockAttempts: number; lockDuration: number },
    now: number,
    othersInFlight = 0,
  ): boolean {
    const until = settings.lockDuration === 0 ? LOCKED_FOREVER : now + settings.lockDuration * 60_000;
    const hash = emailHash(email);
    this.sql
      .fixed(
        `UPDATE unknown_email_lockouts SET locked_until = ?
         WHERE org_id = ? AND email_hash = ? AND failed_attempts - ? >= ? AND locked_until IS NULL`,
      )
      .run(until, orgId, hash, othersInFlight, settings.lockAttempts);
    const row = this.row(orgId, hash);
    return row?.locked_until != null && row.locked_until > now;
  }

  /** Forgets emails whose lock ran out: the next guess would start a clean count anyway (housekeeping). */
  prune(now: number): number {
    return this.sql
      .fixed('DELETE FROM unknown_email_lockouts WHERE locked_until IS NOT NULL AND locked_until <= ?')
      .run(now).changes;
  }

  count(orgId: number): number {
    return (
      this.sql.fixed('SELECT count(*) AS n FROM unknown_email_lockouts WHERE org_id = ?').get(orgId) as { n: number }
    ).n;
  }

  private row(orgId: number, hash: string) {
    return this.sql
      .fixed('SELECT failed_attempts, locked_until FROM unknown_email_lockouts WHERE org_id = ? AND email_hash = ?')
      .get(orgId, hash) as { failed_attempts: number; locked_until: number | null } | undefined;
  }

  private makeRoom(orgId: number): void {
    if (this.count(orgId) < MAX_UNKNOWN_EMAILS_PER_ORG) return;
    this.sql
      .fixed(
        `DELETE FROM unknown_email_lockouts WHERE org_id = ? AND email_hash = (
           SELECT email_hash FROM unknown_email_lockouts WHERE org_id = ?
           ORDER BY locked_until IS NOT NULL, last_attempt LIMIT 1)`,
      )
      .run(orgId, orgId);
  }
}
