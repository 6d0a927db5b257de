import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../db/open.js';
import {
  journalBeside,
  LOG_CHECKPOINT_ENTRIES,
  REPLAY_JOURNAL_FILE,
  ReplayJournal,
  replayLogFile,
} from './replay-journal.js';
import type { NonceLog } from './nonce-log.js';

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

  it('rejects the waiting appends when their write fails, and writes later ones', async () => {
    const journal = ReplayJournal.open({ file: join(dir, 'failing.db') }, 0);
    try {
      const log = (journal as unknown as { log: NonceLog }).log;
      vi.spyOn(log, 'write').mockImplementationOnce(() => {
        throw new Error('ENOSPC: no space left on device, write');
      });
      const failing = journal.appendSoon(1, 'aaaaaaaaaaaaaaaa', LATER);
      await expect(failing).rejects.toThrow(/ENOSPC/);
      await journal.appendSoon(1, 'bbbbbbbbbbbbbbbb', LATER);
      expect(journal.live(0).map((e) => e.nonce)).toEqual(['bbbbbbbbbbbbbbbb']);
    } finally {
      journal.close();
    }
  });

  it('rejects the waiting appends of an in-memory journal when their commit fails, and commits later ones', async () => {
    const journal = ReplayJournal.open({ file: ':memory:' }, 0);
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

describe('ReplayJournal log', () => {
  const LATER = 1_700_000_900_000;
  const rowsInDb = (journal: ReplayJournal) =>
    (journal as unknown as { db: Db }).db.prepare('SELECT count(*) FROM nonces').pluck().get() as number;

  it('writes appends to the log only, and moves them into the database before a read', async () => {
    const file = join(dir, 'log-first.db');
    const journal = ReplayJournal.open({ file }, 0);
    try {
      await journal.appendSoon(7, 'aaaaaaaaaaaaaaaa', LATER);
      expect(readFileSync(replayLogFile(file), 'latin1')).toBe(`${LATER} 7 aaaaaaaaaaaaaaaa\n`);
      expect(rowsInDb(journal)).toBe(0);
      expect(journal.live(0)).toEqual([{ appId: 7, nonce: 'aaaaaaaaaaaaaaaa', expires: LATER }]);
      expect(rowsInDb(journal)).toBe(1);
      expect(readFileSync(replayLogFile(file), 'latin1')).toBe(''); // emptied once the database has it
    } finally {
      journal.close();
    }
  });

  it(`moves the log into the database every ${LOG_CHECKPOINT_ENTRIES} nonces`, async () => {
    const file = join(dir, 'checkpoint.db');
    const journal = ReplayJournal.open({ file }, 0);
    try {
      const nonces = Array.from({ length: LOG_CHECKPOINT_ENTRIES - 1 }, (_, i) => i.toString(36).padStart(16, '0'));
      await Promise.all(nonces.map((n) => journal.appendSoon(1, n, LATER)));
      expect(rowsInDb(journal)).toBe(0);
      await journal.appendSoon(1, 'zzzzzzzzzzzzzzzz', LATER);
      expect(rowsInDb(journal)).toBe(LOG_CHECKPOINT_ENTRIES);
      expect(readFileSync(replayLogFile(file), 'latin1')).toBe('');
    } finally {
      journal.close();
    }
  });

  it('takes in what a killed process left in the log, skipping a half-written last line', async () => {
    const file = join(dir, 'killed.db');
    const killed = ReplayJournal.open({ file }, 0);
    await killed.appendSoon(1, 'aaaaaaaaaaaaaaaa', LATER);
    await killed.appendSoon(2, 'bbbbbbbbbbbbbbbb', LATER + 1);
    // What a SIGKILL leaves: the log as written, no checkpoint, the files let go by the OS.
    (killed as unknown as { log: NonceLog }).log.close();
    (killed as unknown as { db: Db }).db.close();
    appendFileSync(replayLogFile(file), `${LATER} 3 cccccc`); // a power cut mid-write
    const reopened = ReplayJournal.open({ file }, 0);
    try {
      expect(reopened.live(0)).toEqual([
        { appId: 1, nonce: 'aaaaaaaaaaaaaaaa', expires: LATER },
        { appId: 2, nonce: 'bbbbbbbbbbbbbbbb', expires: LATER + 1 },
      ]);
      expect(readFileSync(replayLogFile(file), 'latin1')).toBe('');
    } finally {
      reopened.close();
    }
  });

  it('keeps the log private to its owner', () => {
    const file = join(dir, 'private.db');
    ReplayJournal.open({ file }, 0).close();
    expect(statSync(replayLogFile(file)).mode & 0o777).toBe(0o600);
  });
});

describe('ReplayJournal.forEachLive', () => {
  it('visits the live entries of every app row by row, oldest expiry first, skipping expired ones', async () => {
    const journal = ReplayJournal.open({ file: join(dir, 'each.db') }, 0);
    try {
      journal.append(2, 'cccccccccccccccc', 300);
      journal.append(1, 'aaaaaaaaaaaaaaaa', 100); // expired at 200
      await journal.appendSoon(1, 'bbbbbbbbbbbbbbbb', 200); // logged, not yet in the database
      const seen: [number, string, number][] = [];
      journal.forEachLive(200, (appId, nonce, expires) => seen.push([appId, nonce, expires]));
      expect(seen).toEqual([
        [1, 'bbbbbbbbbbbbbbbb', 200],
        [2, 'cccccccccccccccc', 300],
      ]);
    } finally {
      journal.close();
    }
  });
});
