import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../db/open.js';
import { journalBeside, REPLAY_JOURNAL_FILE, ReplayJournal } from './replay-journal.js';

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

describe('ReplayJournal group commit', () => {
  const LATER = 1_700_000_900_000;

  it('writes the appends of one turn in one commit, which the promise waits for', async () => {
    const journal = ReplayJournal.open({ file: join(dir, 'group.db') }, 0);
    try {
      const flush = vi.spyOn(journal, 'flush');
      const waits = ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc'].map((n) =>
        journal.appendSoon(1, n, LATER),
      );
      expect(new Set(waits).size).toBe(1);
      expect(flush).not.toHaveBeenCalled();
      await waits[0];
      expect(flush).toHaveBeenCalledTimes(1);
      expect(journal.live(0).map((e) => e.nonce)).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc']);
    } finally {
      journal.close();
    }
  });

  it('rejects the waiting appends when their commit fails, and commits later ones', async () => {
    const journal = ReplayJournal.open({ file: join(dir, 'failing.db') }, 0);
    try {
      const db = (journal as unknown as { db: Db }).db;
      const failing = journal.appendSoon(1, 'aaaaaaaaaaaaaaaa', LATER);
      db.exec('ALTER TABLE nonces RENAME TO moved'); // the append's table is gone
      await expect(failing).rejects.toThrow(/no such table/);
      db.exec('ALTER TABLE moved RENAME TO nonces');
      await journal.appendSoon(1, 'bbbbbbbbbbbbbbbb', LATER);
      expect(journal.rows()).toBe(1);
    } finally {
      journal.close();
    }
  });
});
