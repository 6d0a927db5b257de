import type { Db } from '../db/open.js';
import { statements, type Statements } from '../db/statements.js';

export interface CredentialRow {
  org_id: number;
  account_id: string;
  email: string;
  password_hash: string;
  failed_attempts: number;
  locked_until: number | null;
  /** The TOTP seed, encrypted with the service cipher; null when no authenticator is enrolled. */
  totp_secret_enc: string | null;
  /**
   * The last TOTP time step accepted. Null while an enrolment waits for its first code, so a
   * secret with a step is an active authenticator and a secret without one is pending.
   */
  totp_last_step: number | null;
}

/** Password hashes and lock-out counters, kept apart from the account record so reads never see them. */
export class CredentialRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  byEmail(orgId: number, email: string): CredentialRow | undefined {
    return this.sql
      .fixed('SELECT * FROM credentials WHERE org_id = ? AND email = ?')
      .get(orgId, normaliseEmail(email)) as CredentialRow | undefined;
  }

  byAccount(orgId: number, accountId: string): CredentialRow | undefined {
    return this.sql.fixed('SELECT * FROM credentials WHERE org_id = ? AND account_id = ?').get(orgId, accountId) as
      CredentialRow | undefined;
  }

  insert(orgId: number, accountId: string, email: string, passwordHash: string): void {
    this.sql
      .fixed('INSERT INTO credentials (org_id, account_id, email, password_hash) VALUES (?, ?, ?, ?)')
      .run(orgId, accountId, normaliseEmail(email), passwordHash);
  }

  setPassword(orgId: number, accountId: string, passwordHash: string): void {
    this.sql
      .fixed('UPDATE credentials SET password_hash = ? WHERE org_id = ? AND account_id = ?')
      .run(passwordHash, orgId, accountId);
  }

  setEmail(orgId: number, accountId: string, email: string): void {
    this.sql.fixed('UPDATE credentials SET email = ? WHERE org_id = ? AND account_id = ?').run(email, orgId, accountId);
  }

  /** Counts a failure and returns the new count (one statement: concurrent failures all count). */
  recordFailure(orgId: number, accountId: string): number {
    const row = this.sql
      .fixed(
        'UPDATE credentials SET failed_attempts = failed_attempts + 1 WHERE org_id = ? AND account_id = ? RETURNING failed_attempts',
      )
      .get(orgId, accountId) as { failed_attempts: number } | undefined;
    return row?.failed_attempts ?? 0;
  }

  /** Takes back one counted failure (an attempt reserved in advance that turned out not to be a guess). */
  releaseFailure(orgId: number, accountId: string): void {
    this.sql
      .fixed('UPDATE credentials SET failed_attempts = MAX(failed_attempts - 1, 0) WHERE org_id = ? AND account_id = ?')
      .run(orgId, accountId);
  }

  lock(orgId: number, accountId: string, until: number): void {
    this.sql
      .fixed('UPDATE credentials SET locked_until = ? WHERE org_id = ? AND account_id = ?')
      .run(until, orgId, accountId);
  }

  clearFailures(orgId: number, accountId: string): void {
    this.sql
      .fixed('UPDATE credentials SET failed_attempts = 0, locked_until = NULL WHERE org_id = ? AND account_id = ?')
      .run(orgId, accountId);
  }

  /** Starts (or restarts) an authenticator enrolment: the secret is pending until a step is used. */
  setPendingTotp(orgId: number, accountId: string, secretEnc: string): void {
    this.sql
      .fixed('UPDATE credentials SET totp_secret_enc = ?, totp_last_step = NULL WHERE org_id = ? AND account_id = ?')
      .run(secretEnc, orgId, accountId);
  }

  /**
   * Records `step` as used, only if it is later than the last step used (one statement, so two
   * requests racing with the same code cannot both succeed). Returns whether it was recorded.
   */
  useTotpStep(orgId: number, accountId: string, step: number): boolean {
    return (
      this.sql
        .fixed(
          `UPDATE credentials SET totp_last_step = ?
           WHERE org_id = ? AND account_id = ? AND totp_secret_enc IS NOT NULL
             AND (totp_last_step IS NULL OR totp_last_step < ?)`,
        )
        .run(step, orgId, accountId, step).changes === 1
    );
  }

  clearTotp(orgId: number, accountId: string): void {
    this.sql
      .fixed('UPDATE credentials SET totp_secret_enc = NULL, totp_last_step = NULL WHERE org_id = ? AND account_id = ?')
      .run(orgId, accountId);
  }

  remove(orgId: number, accountId: string): void {
    this.sql.fixed('DELETE FROM credentials WHERE org_id = ? AND account_id = ?').run(orgId, accountId);
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
