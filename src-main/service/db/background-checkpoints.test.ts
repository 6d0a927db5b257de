import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from './open.js';
import { startBackgroundCheckpoints } from './background-checkpoints.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ckpt-'));
  db = openDatabase({ file: join(dir, 'service.db') });
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true }) as number;
const walBytes = () => statSync(join(dir, 'service.db-wal')).size;
const insert = (rows: number) => {
  const stmt = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) stmt.run('x'.repeat(1000));
  })();
};

describe('background checkpoints', () => {
  it('take the checkpoints off the writer while they run, copy the WAL into the database, and hand them back', async () => {
    const before = autocheckpoint();
    expect(before).toBeGreaterThan(0);
    const checkpoints = await startBackgroundCheckpoints(db);
    expect(autocheckpoint()).toBe(0);
    // Far past the writer's own threshold: with checkpoints handed off, the writer never copies.
    for (let i = 0; i < 10; i++) insert(2000);
    const report = await checkpoints.stop();
    expect(report.passes).toBeGreaterThan(0);
    // 20,000 rows of a kilobyte: at least one 4 KiB page per four rows was copied.
    expect(report.framesCopied).toBeGreaterThan(5000);
    expect(autocheckpoint()).toBe(before);
    // Nothing else used the database, so the final pass truncated the WAL.
    expect(walBytes()).toBe(0);
    db.close();
    // What was written is in the database file itself, read without the WAL.
    const reader = new Database(join(dir, 'service.db'), { readonly: true });
    expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 20_000 });
    reader.close();
  });

  it('leave the WAL in place when a reader still uses it, losing nothing', async () => {
    const checkpoints = await startBackgroundCheckpoints(db);
    insert(500);
    const reader = new Database(join(dir, 'service.db'), { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) AS n FROM t').get();
    insert(500);
    const report = await checkpoints.stop();
    expect(report.passes).toBeGreaterThan(0);
    expect(walBytes()).toBeGreaterThan(0);
    reader.prepare('COMMIT').run();
    reader.close();
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1000 });
  });

  it('hand the checkpoints back at once when the worker fails, and stop without a report', async () => {
    const before = autocheckpoint();
    // A better-sqlite3 binary that does not exist: the worker cannot open its connection.
    const checkpoints = await startBackgroundCheckpoints(db, { nativeBinding: join(dir, 'missing.node') });
    expect(autocheckpoint()).toBe(0);
    for (let i = 0; i < 100 && autocheckpoint() === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(autocheckpoint()).toBe(before);
    expect(await checkpoints.stop()).toEqual({ passes: 0, framesCopied: 0 });
    insert(10);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 10 });
  });

  it('do nothing for a database without a file', async () => {
    const memory = openDatabase({ file: ':memory:' });
    const checkpoints = await startBackgroundCheckpoints(memory);
    expect(await checkpoints.stop()).toEqual({ passes: 0, framesCopied: 0 });
    memory.close();
  });
});
