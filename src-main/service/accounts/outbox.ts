import type { Db } from '../db/open.js';
import type { SecretCipher } from '../crypto/cipher.js';
import { statements, type Statements } from '../db/statements.js';

/** `registrationAttempt`: someone tried to register with the recipient's email (issue #13 item 7). */
export type MessageKind = 'verification' | 'passwordReset' | 'locationCode' | 'registrationAttempt' | 'notification';

export interface NewMessage {
  accountId?: string;
  kind: MessageKind;
  recipient: string;
  subject: string;
  body: string;
}

/** A message as the API shows it (`GET /outbox`). */
export interface OutboxMessage {
  _id: string;
  object: 'message';
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created: string;
}

interface OutboxRow {
  id: number;
  account_id: string | null;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created: number;
}

/**
 * The local outbox (docs/sessions.md): offline, the emails and codes that would be sent are kept here
 * for an administrator to read in the console. Bodies carry live tokens and codes, so they are
 * encrypted at rest like other secrets: a copy of the database does not yield a reset link.
 */
export class OutboxRepository {
  private readonly sql: Statements;

  constructor(
    private readonly db: Db,
    private readonly cipher: SecretCipher,
  ) {
    this.sql = statements(db);
  }

  add(orgId: number, message: NewMessage, now: number): number {
    const info = this.sql
      .fixed(
        'INSERT INTO outbox (org_id, account_id, kind, recipient, subject, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        orgId,
        message.accountId ?? null,
        message.kind,
        message.recipient,
        message.subject,
        this.cipher.encrypt(message.body),
        now,
      );
    return Number(info.lastInsertRowid);
  }

  /** Messages of a kind sent to an account since `since` (Unix ms): for per-account send limits. */
  countSince(orgId: number, accountId: string, kind: string, since: number): number {
    return (
      this.sql
        .fixed('SELECT count(*) AS n FROM outbox WHERE org_id = ? AND account_id = ? AND kind = ? AND created >= ?')
        .get(orgId, accountId, kind, since) as { n: number }
    ).n;
  }

  /** Forgets an org's messages created before `before` (housekeeping). */
  prune(orgId: number, before: number): number {
    return this.sql.fixed('DELETE FROM outbox WHERE org_id = ? AND created < ?').run(orgId, before).changes;
  }

  /** Newest first; one row more than asked is read to answer `hasMore`. */
  list(orgId: number, page: { skip: number; limit: number }): { data: OutboxMessage[]; hasMore: boolean } {
    const rows = this.sql
      .fixed('SELECT * FROM outbox WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?')
      .all(orgId, page.limit + 1, page.skip) as OutboxRow[];
    return { data: rows.slice(0, page.limit).map((r) => this.present(r)), hasMore: rows.length > page.limit };
  }

  private present(r: OutboxRow): OutboxMessage {
    return {
      _id: String(r.id),
      object: 'message',
      kind: r.kind,
      recipient: r.recipient,
      subject: r.subject,
      body: this.cipher.decrypt(r.body),
      created: new Date(r.created).toISOString(),
    };
  }
}
