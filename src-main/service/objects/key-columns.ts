/**
 * The key columns of collection tables (query/expressions.ts `KeyColumns`): how a new table
 * declares them, and which ones an existing table has.
 */
import type { Db } from '../db/open.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { jsonExtract, keyColumnName, quoteTable, type KeyColumns } from '../query/expressions.js';
import { keyColumnPaths } from '../query/indexes.js';

/** The column definitions a new table of `def` starts with (`, "k.a" GENERATED ALWAYS AS … STORED`…). */
export function keyColumnDefinitions(def: ObjectDef): string {
  return keyColumnPaths(def)
    .map((path) => `, ${keyColumnName(path)} GENERATED ALWAYS AS (${jsonExtract('doc', path)}) STORED`)
    .join('');
}

/** SQLite's `hidden` value of a stored generated column in `table_xinfo`. */
const STORED_GENERATED = 3;

/** The key columns a table has, by storage path (none for a table made before they existed). */
export function readKeyColumns(db: Db, table: string): KeyColumns {
  const rows = db.prepare(`PRAGMA table_xinfo(${quoteTable(table)})`).all() as { name: string; hidden: number }[];
  const columns = new Map<string, string>();
  for (const { name, hidden } of rows) {
    if (hidden === STORED_GENERATED && name.startsWith('k.')) columns.set(name.slice(2), keyColumnName(name.slice(2)));
  }
  return columns;
}
