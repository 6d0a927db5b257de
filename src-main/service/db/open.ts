import Database from 'better-sqlite3';
import { runMigrations } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /**
   * Path of a better-sqlite3 binary built for another runtime's ABI (Electron). Plain Node leaves
   * it unset and uses the build in node_modules.
   */
  nativeBinding?: string;
  /**
   * `full` makes an acknowledged write survive a power cut (an fsync of the WAL on every commit);
   * `normal` (the default) survives process crashes only. Cost: README "Durability".
   */
  synchronous?: SynchronousMode;
}

export type SynchronousMode = 'full' | 'normal';

/**
 * Opens the database and sets every pragma explicitly, on every open: SQLite keeps most of them
 * per connection, so relying on what an earlier open set would silently lose them.
 */
export function openDatabase(opts: OpenOptions): Db {
  const db = new Database(opts.file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma(opts.synchronous === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000'); // the admin CLI may write while the service runs
  // Temporary B-trees (a GROUP BY over an expression, a big sort) start in the page cache and
  // spill to a file past it. In memory (as until the third session of 2026-11-29) they had no
  // bound: a $group by month over 7.8M of 10M accounts held 570 MB, and ran slower (6.8 s
  // against 5.2 s on files; docs/SPEED.md#ten-million-npm-run-benchscale).
  db.pragma('temp_store = FILE');
  db.pragma('cache_size = -32768'); // 32 MiB page cache
  // Memory-mapped reads count towards resident memory. 32 MiB (64 until the eleventh session, when
  // a 1M bench run read 315 MB against the 300 MB budget) still saves copies on the hottest pages;
  // the rest are read through the page cache above, which is capped.
  db.pragma('mmap_size = 33554432');
  db.pragma('wal_autocheckpoint = 4000');
  runMigrations(db, MIGRATIONS);
  return db;
}
