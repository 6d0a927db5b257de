/**
 * The floor's signed-request check (issue 43, docs/SPEED.md): the least code that does the work
 * docs/signing.md requires of a signed request before it is answered. It verifies the HMAC-SHA256 of
 * the version-1 or version-2 message (constant-time compare) and records the nonce in a SQLite
 * table (WAL, one prepared insert, committed before the answer, so a replay is refused after a
 * crash as well). No caches beyond the app's secret, no framework.
 *
 * The table is in a file of its own beside the database (`nonceStoreFile`), not in the database:
 * a commit there by another connection makes SQLite drop the floor's reader's whole page cache at
 * its next read (a WAL reader resets its cache whenever the WAL changed). In process on 20,000
 * accounts that cost a Q4 page 716 µs against 351 µs with the nonces in another file (320 µs with
 * no insert): the cost of sharing the file, not of recording the nonce, and a floor paying it was
 * beaten by the service 1.2–4.2× (the service keeps its nonces apart too: nonce log, journal).
 *
 * Bench-only: the apps' secrets come from the bench that created them (FLOOR_SIGNING_KEYS).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import Database from 'better-sqlite3';
import { canonicalQuery, EMPTY_BODY_SHA256 } from '../../src-shared/contracts/signing.js';

const WINDOW_MS = 15 * 60_000;

/** `key:secret,key:secret` → a map of each signing app's secret. */
export function parseSigningKeys(text: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const pair of (text ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf(':');
    keys.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return keys;
}

/** Where the floor beside the database `dbFile` keeps its nonces. */
export const nonceStoreFile = (dbFile: string): string => `${dbFile}.floor-nonces`;

/** `file`: the nonce store (nonceStoreFile), shared by every floor process on one database. */
export function signedChecker(file: string, secrets: Map<string, string>) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // the service's default: a commit survives a process crash
  db.pragma('busy_timeout = 5000');
  db.exec(
    'CREATE TABLE IF NOT EXISTS bench_floor_nonces (app TEXT NOT NULL, nonce TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (app, nonce)) WITHOUT ROWID',
  );
  const insert = db.prepare('INSERT INTO bench_floor_nonces (app, nonce, ts) VALUES (?, ?, ?)');

  /** True when the request is signed by a known app, in the window, and its nonce is new (now recorded). */
  return (headers: IncomingHttpHeaders, command: string, url: string): boolean => {
    const key = headers['service-client-key'];
    const signature = headers['service-client-signature'];
    const ts = headers['service-client-timestamp'];
    const nonce = headers['service-client-nonce'];
    if (typeof key !== 'string' || typeof signature !== 'string' || signature.length !== 64) return false;
    const secret = secrets.get(key);
    if (secret === undefined) return false;
    if (typeof ts !== 'string' || !/^[0-9]{1,16}$/.test(ts) || typeof nonce !== 'string') return false;
    if (!/^[a-z0-9]{16}$/i.test(nonce) || Math.abs(Number(ts) - Date.now()) > WINDOW_MS) return false;
    let message = `${command};GET;${ts}`;
    if (headers['service-client-signature-version'] === '2') {
      const query = canonicalQuery(url);
      if (query === null) return false;
      message += `;${nonce};${query};${EMPTY_BODY_SHA256}`;
    }
    const expected = createHmac('sha256', key + secret)
      .update(message)
      .digest();
    const presented = Buffer.from(signature, 'hex');
    if (presented.length !== 32 || !timingSafeEqual(expected, presented)) return false;
    try {
      insert.run(key, nonce, Number(ts));
    } catch {
      return false; // the primary key refuses a nonce seen before: a replay
    }
    return true;
  };
}
