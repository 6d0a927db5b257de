import type { Db } from './open.js';

/**
 * Runs `work` (index builds over many rows) with SQLite's sorter allowed two helper threads, then
 * puts the connection's settings back.
 *
 * The sorter uses its helper threads only when it spills sorted runs to temporary files: with
 * `temp_store = MEMORY` (the service's setting until 2026-11-29) `PRAGMA threads` changed nothing,
 * which is why an earlier attempt measured no gain. So, for the rebuild, temporary data goes to
 * files (the service's setting now too; SQLite deletes them on close) and the page cache is
 * smaller, so a million keys are sorted as several runs, in parallel, then merged. Building one
 * index over a million accounts took 2.0–2.9 s this way against 3.7–4.3 s ("Seeding (fifth
 * session)" in docs/speed-history.md, which git keeps before a647cf6).
 */
export function withParallelSorter<T>(db: Db, work: () => T): T {
  const saved = {
    threads: db.pragma('threads', { simple: true }) as number,
    tempStore: db.pragma('temp_store', { simple: true }) as number,
    cacheSize: db.pragma('cache_size', { simple: true }) as number,
  };
  db.pragma('threads = 2');
  db.pragma('temp_store = FILE');
  db.pragma('cache_size = -8192');
  try {
    return work();
  } finally {
    db.pragma(`cache_size = ${Math.trunc(saved.cacheSize)}`);
    db.pragma(`temp_store = ${Math.trunc(saved.tempStore)}`);
    db.pragma(`threads = ${Math.trunc(saved.threads)}`);
  }
}
