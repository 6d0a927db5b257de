import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { statements, type Statements } from '../../db/statements.js';
import { type DataVersion, VersionedCache } from '../../db/data-version.js';

export interface Session {
  idHash: string;
  orgId: number;
  appId: number;
  accountId: string;
  csrf: string;
  fingerprint: string | null;
  created: number;
  lastSeen: number;
  endedReason: string | null;
}

interface SessionRow {
  id_hash: string;
  org_id: number;
  app_id: number;
  account_id: string;
  csrf: string;
  fingerprint: string | null;
  created: number;
  last_seen: number;
  ended_reason: string | null;
}

const toSession = (r: SessionRow): Session => ({
  idHash: r.id_hash,
  orgId: r.org_id,
  appId: r.app_id,
  accountId: r.account_id,
  csrf: r.csrf,
  fingerprint: r.fingerprint,
  created: r.created,
  lastSeen: r.last_seen,
  endedReason: r.ended_reason,
});

/** Where a session was started from, shown to administrators (never used to decide anything). */
export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

export interface LiveSessionRow extends SessionClient {
  idHash: string;
  appId: number;
  accountId: string;
  created: number;
  lastSeen: number;
}

/** Whether a session has been idle longer than its app's `authDuration` (seconds) allows. */
export const sessionIdle = (lastSeen: number, authDurationSeconds: number, now: number): boolean =>
  now - lastSeen > authDurationSeconds * 1000;

/** Only a hash of the session id is stored: a copy of the database does not yield live cookies. */
export const hashSessionId = (sid: string): string => createHash('sha256').update(sid).digest('base64url');

/**
 * Session records. Ended sessions are kept with their reason so the next request can say why.
 *
 * Every session request looks its session up, so lookups are cached until the data changes: this
 * repository's own writes say so through `versions.bump()` (a touch only moves `lastSeen`, which
 * it updates in the cached record too), and another process's commits move SQLite's data_version.
 */
export class SessionRepository {
  private readonly statements: Statements;
  /** By session id (the cookie value): the cache lives in this process's memory only. */
  private readonly bySid: VersionedCache<string, Readonly<Session> | undefined>;
  private readonly byHash = new Map<string, Session>();

  constructor(
    db: Db,
    private readonly versions: DataVersion,
  ) {
    this.statements = statements(db);
    this.bySid = new VersionedCache(versions, 10_000, () => this.byHash.clear());
  }

  /** Prepared once: sessions are read on every session request. */
  private stmt(sql: string) {
    return this.statements.fixed(sql);
  }

  create(
    orgId: number,
    appId: number,
    accountId: string,
    fingerprint: string | null,
    now: number,
    client: SessionClient = { ip: null, userAgent: null },
  ) {
    const sid = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    this.stmt(
      `INSERT INTO sessions (id_hash, org_id, app_id, account_id, csrf, fingerprint, created, last_seen, ip, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(hashSessionId(sid), orgId, appId, accountId, csrf, fingerprint, now, now, client.ip, client.userAgent);
    this.versions.bump();
    return { sid, csrf };
  }

  /** The session a cookie names; the record is shared with later lookups, so it is read-only. */
  find(sid: string): Readonly<Session> | undefined {
    return this.bySid.get(sid, () => {
      const row = this.stmt('SELECT * FROM sessions WHERE id_hash = ?').get(hashSessionId(sid)) as
        SessionRow | undefined;
      if (!row) return undefined;
      const session = toSession(row);
      this.byHash.set(session.idHash, session);
      return session;
    });
  }

  /** Records activity. Not a change anyone caches on: the cached record just follows. */
  touch(idHash: string, now: number): void {
    this.stmt('UPDATE sessions SET last_seen = ? WHERE id_hash = ?').run(now, idHash);
    const cached = this.byHash.get(idHash);
    if (cached) cached.lastSeen = now;
  }

  end(idHash: string, reason: string): void {
    this.stmt('UPDATE sessions SET ended_reason = ? WHERE id_hash = ? AND ended_reason IS NULL').run(reason, idHash);
    this.versions.bump();
  }

  /** Ends every live session of an account (a new login elsewhere, a password change, a lock). */
  endForAccount(orgId: number, accountId: string, reason: string): number {
    const changes = this.stmt(
      'UPDATE sessions SET ended_reason = ? WHERE org_id = ? AND account_id = ? AND ended_reason IS NULL',
    ).run(reason, orgId, accountId).changes;
    this.versions.bump();
    return changes;
  }

  /** Sessions not ended, most recently active first (idle ones are filtered by the caller, per app). */
  listLive(orgId: number): LiveSessionRow[] {
    const rows = this.stmt(
      `SELECT id_hash, app_id, account_id, created, last_seen, ip, user_agent FROM sessions
       WHERE org_id = ? AND ended_reason IS NULL ORDER BY last_seen DESC, created DESC`,
    ).all(orgId) as {
      id_hash: string;
      app_id: number;
      account_id: string;
      created: number;
      last_seen: number;
      ip: string | null;
      user_agent: string | null;
    }[];
    return rows.map((r) => ({
      idHash: r.id_hash,
      appId: r.app_id,
      accountId: r.account_id,
      created: r.created,
      lastSeen: r.last_seen,
      ip: r.ip,
      userAgent: r.user_agent,
    }));
  }

  countLiveForApp(appId: number): number {
    return (
      this.stmt('SELECT count(*) AS n FROM sessions WHERE app_id = ? AND ended_reason IS NULL').get(appId) as {
        n: number;
      }
    ).n;
  }

  /** Forgets ended and idle sessions older than `before` (housekeeping). */
  prune(before: number): number {
    const changes = this.stmt('DELETE FROM sessions WHERE last_seen < ?').run(before).changes;
    this.versions.bump();
    return changes;
  }
}
