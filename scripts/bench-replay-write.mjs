// What recording one signed request's nonce costs (issue #14): the INSERT the replay store ran
// before (a shared WAL database, a random primary-key page, a counting trigger) against the
// journal append it runs now (its own database, exclusive lock, key ordered by expiry, sync OFF).
// Turns of 2,000 nonces alternate between the two; medians of 12 turns, µs per nonce.
// Run: node scripts/bench-replay-write.mjs   (docs/speed-history.md, "Signed requests (issue #14)")
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const dir = mkdtempSync(join(tmpdir(), 'bench-replay-'));
const WINDOW = 15 * 60_000;

function sharedInsert() {
  const db = new Database(join(dir, 'shared.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE replay_entries (kind TEXT NOT NULL, value TEXT NOT NULL, app_id INTEGER NOT NULL,
      expires INTEGER NOT NULL, PRIMARY KEY (kind, value)) WITHOUT ROWID;
    CREATE INDEX replay_entries_expires ON replay_entries(expires);
    CREATE TABLE replay_counts (app_id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    CREATE TRIGGER counted AFTER INSERT ON replay_entries BEGIN
      INSERT INTO replay_counts VALUES (new.app_id, 1) ON CONFLICT (app_id) DO UPDATE SET n = n + 1; END;`);
  const insert = db
    .prepare(
      `INSERT INTO replay_entries (kind, value, app_id, expires)
         SELECT 'nonce', ?, ?, ? WHERE coalesce((SELECT n FROM replay_counts WHERE app_id = ?), 0) < ?
         ON CONFLICT (kind, value) DO UPDATE SET expires = excluded.expires WHERE replay_entries.expires < ?
         RETURNING 1`,
    )
    .pluck();
  return { db, remember: (nonce, now) => insert.get(`1:${nonce}`, 1, now + WINDOW, 1, 1e6, now) };
}

function journalAppend() {
  const db = new Database(join(dir, 'journal.db'));
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE nonces (expires INTEGER NOT NULL, app_id INTEGER NOT NULL, nonce TEXT NOT NULL,
      PRIMARY KEY (expires, app_id, nonce)) WITHOUT ROWID`);
  const append = db.prepare('INSERT OR REPLACE INTO nonces (expires, app_id, nonce) VALUES (?, ?, ?)');
  const seen = new Map();
  return {
    db,
    remember: (nonce, now) => {
      if (seen.has(nonce)) return;
      append.run(now + WINDOW, 1, nonce);
      seen.set(nonce, now + WINDOW);
    },
  };
}

const sides = { 'shared INSERT (before)': sharedInsert(), 'journal append (now)': journalAppend() };
// 20,000 live nonces first: what a few seconds of signed load leave in the window.
for (const side of Object.values(sides)) {
  side.db.transaction(() => {
    for (let i = 0; i < 20_000; i++) side.remember(randomBytes(8).toString('hex'), Date.now());
  })();
}
const cpu = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
for (let turn = 0; turn < 12; turn++) {
  const names = Object.keys(sides);
  for (const name of turn % 2 ? names : names.reverse()) {
    const nonces = Array.from({ length: 2000 }, () => randomBytes(8).toString('hex'));
    const before = process.cpuUsage();
    for (const nonce of nonces) sides[name].remember(nonce, Date.now());
    const used = process.cpuUsage(before);
    cpu[name].push((used.user + used.system) / nonces.length);
  }
}
for (const [name, samples] of Object.entries(cpu)) {
  samples.sort((a, b) => a - b);
  console.log(`${name}: ${samples[6].toFixed(1)} µs of CPU per nonce`);
}
for (const side of Object.values(sides)) side.db.close();
rmSync(dir, { recursive: true, force: true });
