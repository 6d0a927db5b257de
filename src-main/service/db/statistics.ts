import type { Db } from './open.js';

/**
 * Index entries ANALYZE reads per index after a bulk load. SQLite's planner needs the statistics
 * (`sqlite_stat1`) to describe the table roughly, not exactly: this bound keeps the refresh cheap
 * whatever the table's size. Measured on 100,000 accounts (13 indexes): a full ANALYZE took 927 ms
 * (it also samples `sqlite_stat4`, which a bounded one leaves out), a bounded one 80 ms, almost all
 * of it counting the rows, which stays exact. The figures stay close to a full ANALYZE's
 * (`100001 201 3 1` against `100001 241 4 1` for `(name.last, name.first, _id)`).
 */
export const ANALYSIS_LIMIT = 1000;

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * Brings the planner's statistics up to date after a bulk load (a seed, an NDJSON import, an
 * environment import): without it `sqlite_stat1` goes on describing the table as it was at the
 * last ANALYZE — a table of 2 rows that now holds 100,000 — and the planner may pick its plans for
 * the 2-row table. The loaded tables are analysed by name; any other table whose size drifted 25×
 * from its statistics since (SQLite's rule for `PRAGMA optimize`) is analysed too. Both bounded by
 * `ANALYSIS_LIMIT`. Connections opened afterwards read the new statistics; a service already
 * running on the file keeps its plans until it restarts.
 */
export function refreshStatistics(db: Db, tables: Iterable<string>): void {
  db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  for (const table of new Set(tables)) {
    if (!TABLE_NAME.test(table)) throw new Error(`bad table name ${table}`);
    db.exec(`ANALYZE "${table}"`);
  }
  // 0x10000: every table, not only those this connection queried; 0x02: analyse where needed.
  db.pragma('optimize = 0x10002');
}
