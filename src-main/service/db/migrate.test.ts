import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MigrationError, runMigrations, type Migration } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { openDatabase } from './open.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const m1: Migration = { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' };
const m2: Migration = { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER)' };

describe('migrations', () => {
  it('applies pending migrations once, in order', () => {
    const db = new Database(':memory:');
    expect(runMigrations(db, [m1])).toBe(1);
    expect(runMigrations(db, [m1, m2])).toBe(1);
    expect(runMigrations(db, [m1, m2])).toBe(0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name IN ('a','b')").all()).toHaveLength(2);
  });

  it('refuses to start when an applied migration was edited', () => {
    const db = new Database(':memory:');
    runMigrations(db, [m1]);
    expect(() => runMigrations(db, [{ ...m1, sql: 'CREATE TABLE a (x TEXT)' }])).toThrow(MigrationError);
  });

  it('refuses a database newer than the code', () => {
    const db = new Database(':memory:');
    runMigrations(db, [m1, m2]);
    expect(() => runMigrations(db, [m1])).toThrow(/does not know/);
  });

  it('rolls back a failing migration entirely', () => {
    const db = new Database(':memory:');
    const bad: Migration = { version: 1, name: 'bad', sql: 'CREATE TABLE c (z INTEGER); SELECT * FROM missing_table;' };
    expect(() => runMigrations(db, [bad])).toThrow();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'c'").get()).toBeUndefined();
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 });
  });

  it('opens a file in WAL mode with foreign keys on, every time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    try {
      for (let i = 0; i < 2; i++) {
        const db = openDatabase({ file: join(dir, 'x.db') });
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
        expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length });
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
