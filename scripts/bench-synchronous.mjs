// Cost of synchronous=FULL against NORMAL (issue #13, item 8): N single-record write
// transactions, each acknowledged alone like one POST, on a WAL database in a temporary folder.
// Run: node scripts/bench-synchronous.mjs [N]   (the figures depend on the disk; README "Durability")
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const N = Number(process.argv[2] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));

function run(mode) {
  const db = new Database(join(dir, `${mode}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec('CREATE TABLE records (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO records (doc) VALUES (?)');
  const doc = JSON.stringify({ c_title: 'a conversation', c_body: 'x'.repeat(200) });
  const write = db.transaction(() => insert.run(doc));
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) write();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  db.close();
  return {
    mode,
    writes: N,
    totalMs: Math.round(ms),
    perWriteMs: +(ms / N).toFixed(3),
    writesPerSecond: Math.round((N / ms) * 1000),
  };
}

try {
  // Alternate so that a disk's warm-up does not favour one mode.
  const results = [run('NORMAL'), run('FULL')];
  rmSync(join(dir, 'NORMAL.db'), { force: true });
  rmSync(join(dir, 'FULL.db'), { force: true });
  results.push(run('NORMAL'), run('FULL'));
  console.table(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
