import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../db/open.js';
import { journalBeside, REPLAY_JOURNAL_FILE } from './replay-journal.js';

const dir = mkdtempSync(join(tmpdir(), 'journal-beside-'));
const opened: Db[] = [];
afterEach(() => opened.splice(0).forEach((db) => db.close()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = (...args: Parameters<typeof openDatabase>) => {
  const db = openDatabase(...args);
  opened.push(db);
  return db;
};

describe('journalBeside', () => {
  it('puts the journal beside the database and makes it as durable as the database', () => {
    expect(journalBeside(open({ file: join(dir, 'a.db') }))).toEqual({
      file: join(dir, REPLAY_JOURNAL_FILE),
      synchronous: 'normal',
    });
    expect(journalBeside(open({ file: join(dir, 'b.db'), synchronous: 'full' }), '/x/better_sqlite3.node')).toEqual({
      file: join(dir, REPLAY_JOURNAL_FILE),
      synchronous: 'full',
      nativeBinding: '/x/better_sqlite3.node',
    });
  });

  it('keeps the journal of an in-memory database in memory', () => {
    expect(journalBeside(open({ file: ':memory:' }))).toEqual({ file: ':memory:' });
  });
});
