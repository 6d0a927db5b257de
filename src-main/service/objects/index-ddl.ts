/**
 * The index DDL of collection tables (the indexes query/indexes.ts derives from a definition), and
 * SQLite's UNIQUE failures read as faults that name the property (docs/faults.md: user input
 * never answers a 500).
 */
import type { Db } from '../db/open.js';
import { fault, type FaultError } from '../../../src-shared/faults.js';
import { quoteTable } from '../query/expressions.js';
import { isDefinitionIndex, type IndexSpec } from '../query/indexes.js';

function isUniqueFailure(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Builds an index if missing. A unique index over records that already share a value cannot be
 * built: that is the administrator's data to fix, so it is a validation fault on the property.
 */
export function createIndex(db: Db, spec: IndexSpec): void {
  try {
    db.exec(spec.sql);
  } catch (err) {
    if (!spec.unique || !isUniqueFailure(err)) throw err;
    throw fault('validation', 'definition', {
      path: spec.path,
      reason: `${spec.path} has duplicate values; make them unique first.`,
    });
  }
}

/**
 * Drops the definition indexes of `table` that are not among `wanted` (a property made
 * `unique: false` or `indexed: false`): `CREATE … IF NOT EXISTS` alone never removes one, and a
 * unique index left behind would go on refusing duplicates the definition now allows.
 */
export function dropUnwantedIndexes(db: Db, table: string, wanted: readonly IndexSpec[]): void {
  const keep = new Set(wanted.map((s) => s.name));
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
    .pluck()
    .all(table) as string[];
  for (const name of names) {
    if (isDefinitionIndex(table, name) && !keep.has(name)) db.exec(`DROP INDEX ${quoteTable(name)}`);
  }
}

/**
 * The fault for a write a unique index refused, naming the property it guards; undefined for any
 * other error. SQLite names an expression index (`index 'ux_…'`, looked up in `indexPaths`), but
 * the column of an index over a key column (`o1_t.k.c_code`: a property made unique after it was
 * indexed) or over `_id` (`o1_t._id`).
 */
export function uniqueWriteFault(err: unknown, indexPaths: ReadonlyMap<string, string>): FaultError | undefined {
  if (!isUniqueFailure(err)) return undefined;
  const message = (err as { message?: unknown }).message;
  const text = typeof message === 'string' ? message : '';
  const index = /index '([^']+)'/.exec(text)?.[1];
  const column = /\.k\.(\S+)$/.exec(text)?.[1];
  // A reference's key column holds its `_id` (`owner._id`); the property is the reference.
  const path = (index ? indexPaths.get(index) : column?.replace(/\._id$/, '')) ?? '_id';
  return fault('exists', 'property', { path, reason: `A record with this ${path} already exists.` });
}
