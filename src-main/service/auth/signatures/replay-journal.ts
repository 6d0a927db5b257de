import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fault, type FaultError } from '../../../../src-shared/faults.js';
import type { Db, SynchronousMode } from '../../db/open.js';
import { ensurePrivateFile, makeDatabaseFilesPrivate } from '../../db/private-files.js';
import { logLines, NonceLog, type JournalEntry } from './nonce-log.js';

export type { JournalEntry } from './nonce-log.js';

/** Where the journal lives and how it is opened; `file` ':memory:' keeps it in memory (tests). */
export interface ReplayJournalOptions {
  file: string;
  /** The better-sqlite3 binary the main database uses (Electron's ABI). */
  nativeBinding?: string;
  /** `full` syncs every appended nonce to disk, as the main database does on the desktop. */
  synchronous?: SynchronousMode;
}

/** The journal's file in a data dir, beside `service.db`. */
export const REPLAY_JOURNAL_FILE = 'replay-nonces.db';

/** The journal's log (nonce-log.ts), beside its database: `replay-nonces.log`. */
export const replayLogFile = (journalFile: string): string => journalFile.replace(/\.db$/, '') + '.log';

/** How many logged nonces the journal lets gather before moving them into its database. */
export const LOG_CHECKPOINT_ENTRIES = 1024;

/**
 * The journal of a service database: beside its file (in memory for ':memory:'), opened with the
 * same better-sqlite3 binary, and `full` when the database runs at FULL or above.
 */
export function journalBeside(db: Db, nativeBinding?: string): ReplayJournalOptions {
  if (db.memory) return { file: ':memory:' };
  const level = db.pragma('synchronous', { simple: true }) as number;
  return {
    file: join(dirname(db.name), REPLAY_JOURNAL_FILE),
    synchronous: level >= 2 ? 'full' : 'normal',
    ...(nativeBinding ? { nativeBinding } : {}),
  };
}

/**
 * The durable half of the replay store: every accepted nonce is written here before its request
 * is answered, and read back when the service starts, so a restart does not reopen the window.
 *
 * Two files. The nonce is appended as a line to a log (`replay-nonces.log`, nonce-log.ts): one
 * small `write`, which is all a signed request waits for. Every `LOG_CHECKPOINT_ENTRIES` nonces,
 * and before any read or delete, the logged lines move in one transaction into a database
 * (`replay-nonces.db`) keyed by expiry, where pruning is a range delete, and the log is emptied.
 * Opening takes in what an earlier process left in the log, a crash's included.
 *
 * Why a database of its own, held by one connection with `locking_mode = EXCLUSIVE`: a write to
 * the shared main database costs six `fcntl` locks and a random page of a primary key; here the
 * rows land at the right edge of a key ordered by expiry (nearly the order of arrival), with no
 * locking system calls. The exclusive lock also makes this process the one that decides replays
 * for the data dir (and the only writer of the log): a second service on the same folder cannot
 * open the journal and refuses signed requests instead of accepting replays it cannot see (it
 * serves everything else, and takes the journal over once the first one has stopped).
 *
 * Group commit: a request's nonce is queued (`appendSoon`) and every nonce queued in one event-loop
 * turn is written with one `write` at its end; the requests are answered once it has returned. At
 * `full`, where each write waits for the disk, a request that shares a write saves an fsync.
 *
 * Durability: with the main database at `synchronous = normal` the log is written without a sync
 * and the database runs at `off`, which, like `normal` in WAL mode, survives the process being
 * killed (each write has reached the OS before the answer) but not a power cut; at `full` every
 * write and checkpoint is synced. A power cut can leave a last line half-written, which the next
 * opening skips (its request was never answered); a journal database found damaged is set aside
 * (`*.damaged-<time>`) and a new one started, filled again from the log.
 */
export class ReplayJournal {
  private readonly appendStatement: Database.Statement;
  private readonly appendAll: (entries: JournalEntry[]) => void;
  /** Appends waiting for the write at the end of this event-loop turn (`appendSoon`). */
  private queued: JournalEntry[] = [];
  private commit: PendingCommit | undefined;
  /** Entries in the log and not yet in the database (`checkpoint`). */
  private logged: JournalEntry[] = [];

  private constructor(
    private readonly db: Db,
    /** Undefined for a journal in memory, whose appends go straight into its database. */
    private readonly log: NonceLog | undefined,
  ) {
    this.appendStatement = db.prepare('INSERT OR REPLACE INTO nonces (expires, app_id, nonce) VALUES (?, ?, ?)');
    this.appendAll = db.transaction((entries: JournalEntry[]) => {
      for (const e of entries) this.appendStatement.run(e.expires, e.appId, e.nonce);
    });
  }

  /**
   * Opens the journal, waiting up to `waitMs` for another process to let go of it; throws the
   * `error.replayJournal` fault when it does not (it is serving signed requests for this folder).
   * Takes in what the log still holds.
   */
  static open(opts: ReplayJournalOptions, waitMs: number): ReplayJournal {
    const db = ReplayJournal.openDb(opts, waitMs);
    if (opts.file === ':memory:') return new ReplayJournal(db, undefined);
    let log: NonceLog;
    try {
      log = NonceLog.open(replayLogFile(opts.file), opts.synchronous === 'full');
    } catch (err) {
      db.close();
      throw err;
    }
    const journal = new ReplayJournal(db, log);
    try {
      journal.logged = log.entries();
      journal.checkpoint();
    } catch (err) {
      journal.close();
      throw err;
    }
    return journal;
  }

  private static openDb(opts: ReplayJournalOptions, waitMs: number): Db {
    try {
      return openJournalDb(opts, waitMs);
    } catch (err) {
      if (isBusy(err)) throw journalHeldElsewhere();
      if (opts.file !== ':memory:' && isDamaged(err)) {
        setAside(opts.file);
        return openJournalDb(opts, waitMs);
      }
      throw err;
    }
  }

  /** Writes one entry straight into the database (importing an earlier version's nonces). */
  append(appId: number, nonce: string, expires: number): void {
    this.appendStatement.run(expires, appId, nonce);
  }

  /**
   * Group commit: queues an append for one write at the end of this event-loop turn, and returns
   * a promise that settles once that write has returned (rejected if it failed). Under concurrent
   * signed requests, every nonce accepted while one turn's requests are handled shares a write;
   * each request is still answered only after its nonce is written.
   */
  appendSoon(appId: number, nonce: string, expires: number): Promise<void> {
    this.queued.push({ appId, nonce, expires });
    if (this.commit === undefined) {
      this.commit = pendingCommit();
      setImmediate(() => this.flush());
    }
    return this.commit.promise;
  }

  /** Writes what `appendSoon` queued now (the turn's end, or before a read, a delete or closing). */
  flush(): void {
    const commit = this.commit;
    const entries = this.queued;
    this.commit = undefined;
    this.queued = [];
    if (commit === undefined) return;
    try {
      if (this.log === undefined) {
        this.appendAll(entries);
      } else {
        this.log.write(logLines(entries));
        for (const e of entries) this.logged.push(e);
      }
      commit.resolve();
    } catch (err) {
      commit.reject(err);
      return;
    }
    if (this.logged.length >= LOG_CHECKPOINT_ENTRIES) this.checkpointQuietly();
  }

  /**
   * Moves the logged entries into the database in one transaction, then empties the log. A crash
   * between the two leaves entries in both, which the next opening writes again (a replace).
   */
  checkpoint(): void {
    if (this.log === undefined || this.logged.length === 0) return;
    this.appendAll(this.logged);
    this.logged = [];
    this.log.truncate();
  }

  /** Entries live at `now` (expiring at or after it), oldest expiry first, as one array (tests). */
  live(now: number): JournalEntry[] {
    const entries: JournalEntry[] = [];
    this.forEachLive(now, (appId, nonce, expires) => entries.push({ appId, nonce, expires }));
    return entries;
  }

  /**
   * Calls `visit` for each entry live at `now`, oldest expiry first, one row at a time. Why not
   * `live`: a service restarted after heavy signed load reads millions of nonces here, and an
   * array of row objects held them all on the heap at once (2.4 million nonces left the process
   * at about 760 MB of resident memory, the collector's headroom included); rows read one by one
   * as arrays die young.
   */
  forEachLive(now: number, visit: (appId: number, nonce: string, expires: number) => void): void {
    this.settle();
    const rows = this.db
      .prepare('SELECT app_id, nonce, expires FROM nonces WHERE expires >= ? ORDER BY expires')
      .raw(true)
      .iterate(now) as IterableIterator<[number, string, number]>;
    for (const [appId, nonce, expires] of rows) visit(appId, nonce, expires);
  }

  /** Deletes entries that expired before `now` (a range at the start of the key). */
  prune(now: number): number {
    this.settle();
    return this.db.prepare('DELETE FROM nonces WHERE expires < ?').run(now).changes;
  }

  forgetApp(appId: number): void {
    this.settle();
    this.db.prepare('DELETE FROM nonces WHERE app_id = ?').run(appId);
  }

  rows(): number {
    this.settle();
    return this.db.prepare('SELECT count(*) FROM nonces').pluck().get() as number;
  }

  close(): void {
    if (!this.db.open) return;
    try {
      this.settle();
    } finally {
      this.log?.close();
      this.db.close();
    }
  }

  /** Everything accepted so far in the database, so a read or a delete sees it. */
  private settle(): void {
    this.flush();
    this.checkpoint();
  }

  /**
   * A checkpoint after a write: the requests' nonces are already safe in the log, so a failure
   * here fails none of them; the entries stay logged and the next checkpoint tries again.
   */
  private checkpointQuietly(): void {
    try {
      this.checkpoint();
    } catch {
      // left in the log (see above)
    }
  }
}

interface PendingCommit {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function pendingCommit(): PendingCommit {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Every request that queued an append awaits this; the catch only keeps a failed commit that
  // nobody awaits (a direct `remember` in a test) from counting as an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The fault a signed request gets from a service that does not hold its folder's journal. */
export function journalHeldElsewhere(): FaultError {
  return fault('error', 'replayJournal', {
    reason: `Another service process on this data folder holds its replay journal (${REPLAY_JOURNAL_FILE}), so this one cannot tell replays apart and refuses signed requests; send them to that service.`,
  });
}

function openJournalDb(opts: ReplayJournalOptions, waitMs: number): Db {
  const onDisk = opts.file !== ':memory:';
  if (onDisk) ensurePrivateFile(opts.file);
  const db = new Database(opts.file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
    // Set before WAL is entered, so the WAL index lives in this process's memory (no -shm file).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma(opts.synchronous === 'full' ? 'synchronous = FULL' : 'synchronous = OFF');
    // The first write takes the exclusive lock and keeps it until close.
    db.exec(`CREATE TABLE IF NOT EXISTS nonces (
        expires INTEGER NOT NULL,
        app_id INTEGER NOT NULL,
        nonce TEXT NOT NULL,
        PRIMARY KEY (expires, app_id, nonce)
      ) WITHOUT ROWID`);
    db.prepare('SELECT count(*) FROM nonces').get(); // walks the table: a damaged file fails here, not mid-request
  } catch (err) {
    db.close();
    throw err;
  }
  if (onDisk) makeDatabaseFilesPrivate(opts.file);
  return db;
}

/** Moves a damaged journal aside with whatever WAL SQLite left of it, which a new file must not replay. */
function setAside(file: string): void {
  const suffix = `.damaged-${Date.now()}`;
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) renameSync(path, `${path}${suffix}`);
  }
}

const codeOf = (err: unknown): string => String((err as { code?: unknown }).code ?? '');
const isBusy = (err: unknown): boolean => codeOf(err).startsWith('SQLITE_BUSY') || codeOf(err) === 'SQLITE_LOCKED';
const isDamaged = (err: unknown): boolean => codeOf(err) === 'SQLITE_CORRUPT' || codeOf(err) === 'SQLITE_NOTADB';
