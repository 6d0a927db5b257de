// What recording a signed request's nonce durably costs, by store (issue 43: "keep looking for the
// cheapest durable nonce store"). CPU time (user + system) per nonce, so the machine's load moves
// the figures less than wall time would; turns of 5,000 nonces alternate between the stores and
// each figure is the median of 15 turns.
//
//   sqlite-insert  the authenticating floor's store: one prepared INSERT into a WAL table of the
//                  service's database (synchronous NORMAL), one commit per nonce
//   log-append-1   the service's nonce log (auth/signatures/nonce-log.ts) at one request per
//                  event-loop turn: one O_APPEND write of one line per nonce
//   log-append-8   the same with 8 requests per turn (its group write): one write per 8 nonces
//   memory-only    a Set insert: what a start-time fence would pay per request (it writes only
//                  when its high-water mark moves, and refuses every earlier timestamp after a
//                  restart instead of remembering nonces across it)
//
// Run: node scripts/bench-nonce-stores.mjs
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const dir = mkdtempSync(join(tmpdir(), 'bench-nonces-'));
const TURN = 5000;
const TURNS = 15;
const WINDOW = 15 * 60_000;
let counter = 0;
const nonce = () => (counter++).toString(36).padStart(16, '0');

function sqliteInsert() {
  const db = new Database(join(dir, 'service.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE nonces (app TEXT NOT NULL, nonce TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (app, nonce)) WITHOUT ROWID',
  );
  const insert = db.prepare('INSERT INTO nonces (app, nonce, ts) VALUES (?, ?, ?)');
  return {
    turn: () => {
      for (let i = 0; i < TURN; i++) insert.run('app key', nonce(), Date.now());
    },
    close: () => db.close(),
  };
}

function logAppend(perWrite) {
  const fd = openSync(join(dir, `nonces-${perWrite}.log`), 'a');
  return {
    turn: () => {
      for (let i = 0; i < TURN; i += perWrite) {
        let text = '';
        for (let k = 0; k < perWrite; k++) text += `${Date.now() + WINDOW} 1 ${nonce()}\n`;
        const bytes = Buffer.from(text, 'latin1');
        writeSync(fd, bytes, 0, bytes.length);
      }
    },
    close: () => closeSync(fd),
  };
}

function memoryOnly() {
  const seen = new Set();
  return {
    turn: () => {
      for (let i = 0; i < TURN; i++) seen.add(`1:${nonce()}`);
    },
    close: () => seen.clear(),
  };
}

const stores = {
  'sqlite-insert': sqliteInsert(),
  'log-append-1': logAppend(1),
  'log-append-8': logAppend(8),
  'memory-only': memoryOnly(),
};
const times = Object.fromEntries(Object.keys(stores).map((k) => [k, []]));
const names = Object.keys(stores);
for (let t = 0; t < TURNS; t++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(t + k) % names.length];
    const before = process.cpuUsage();
    stores[name].turn();
    const used = process.cpuUsage(before);
    times[name].push((used.user + used.system) / TURN);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}; CPU µs per nonce, median of ${TURNS} turns:`,
);
for (const name of names) console.log(`  ${name.padEnd(14)} ${median(times[name]).toFixed(2)}`);
for (const s of Object.values(stores)) s.close();
rmSync(dir, { recursive: true, force: true });
