import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { statements, type Statements } from '../../db/statements.js';

/*
 * Naming (issue #12): in this codebase "token" means a JWT (auth/tokens/). The single-use secrets
 * mailed to an account's owner — a password-reset link, an email-verification link — are
 * **tickets**. On the wire they keep the spec's field name `token` (`POST /accounts/verify
 * {token}`, `POST /accounts/reset-password {token, password}`) and their fault names.
 */

/** What a ticket is for; part of its stored hash, so one kind never opens another. */
export type TicketPurpose = 'reset' | 'verify';

/** Password-reset tickets live one hour; verification tickets a week. */
export const RESET_TICKET_TTL_MS = 60 * 60_000;
export const VERIFY_TICKET_TTL_MS = 7 * 24 * 60 * 60_000;

export type ConsumeResult = { ok: true; accountId: string } | { ok: false; why: 'unknown' | 'expired' };

const storedHash = (purpose: TicketPurpose, ticket: string): string =>
  `${purpose}:${createHash('sha256').update(ticket).digest('base64url')}`;

/**
 * Account tickets (password reset and email verification) in `account_tickets`. Only a
 * purpose-prefixed SHA-256 of the ticket is stored: the ticket is 32 random bytes, so a fast hash
 * is enough, and a copy of the database yields no usable link. A ticket is valid while
 * `now <= expires`, and is used at most once.
 */
export class AccountTicketRepository {
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  issue(purpose: TicketPurpose, orgId: number, accountId: string, ttlMs: number, now: number): string {
    const ticket = randomBytes(32).toString('base64url');
    this.sql
      .fixed('INSERT INTO account_tickets (ticket_hash, org_id, account_id, expires) VALUES (?, ?, ?, ?)')
      .run(storedHash(purpose, ticket), orgId, accountId, now + ttlMs);
    return ticket;
  }

  /** Marks the ticket used and returns its account; an unknown, used or expired ticket is refused. */
  consume(purpose: TicketPurpose, orgId: number, ticket: string, now: number): ConsumeResult {
    const hash = storedHash(purpose, ticket);
    return this.db
      .transaction((): ConsumeResult => {
        const row = this.sql
          .fixed('SELECT account_id, expires, used FROM account_tickets WHERE ticket_hash = ? AND org_id = ?')
          .get(hash, orgId) as { account_id: string; expires: number; used: number } | undefined;
        if (!row || row.used !== 0) return { ok: false, why: 'unknown' };
        if (now > row.expires) return { ok: false, why: 'expired' };
        this.sql.fixed('UPDATE account_tickets SET used = 1 WHERE ticket_hash = ?').run(hash);
        return { ok: true, accountId: row.account_id };
      })
      .immediate(); // the write lock before the read: another process cannot use the ticket in between
  }

  /** Voids every outstanding ticket of one purpose for an account (after a reset, say). */
  voidAll(purpose: TicketPurpose, orgId: number, accountId: string): void {
    this.sql
      .fixed('UPDATE account_tickets SET used = 1 WHERE org_id = ? AND account_id = ? AND ticket_hash LIKE ?')
      .run(orgId, accountId, `${purpose}:%`);
  }

  /** Forgets tickets that expired before `before` (housekeeping). */
  prune(before: number): number {
    return this.sql.fixed('DELETE FROM account_tickets WHERE expires < ?').run(before).changes;
  }
}
