import type { Db } from '../db/open.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { indexSpecs } from '../query/indexes.js';
import { NO_KEY_COLUMNS, type KeyColumns } from '../query/expressions.js';
import type { Statements } from '../db/statements.js';
import { withParallelSorter } from '../db/parallel-sorter.js';
import { keyColumnDefinitions, readKeyColumns } from './key-columns.js';
import { createIndex, dropUnwantedIndexes } from './index-ddl.js';

/** Object type names, as table names take them (and top-level property names the store inlines). */
export const TYPE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** The table of an org's object type: `o<orgId>_<name>`. */
export function tableName(orgId: number, def: ObjectDef): string {
  if (!Number.isSafeInteger(orgId) || !TYPE_NAME.test(def.name)) throw new Error(`bad collection ${orgId}/${def.name}`);
  return `o${orgId}_${def.name}`;
}

/**
 * The tables of the object store (store.ts) and what they are made of: one table per org and
 * object type, `(_id, doc)` plus a key column per non-unique indexed path (query/expressions.ts;
 * tables made before them have none), with an index on each indexed path (over its key column,
 * else over its `json_extract` expression). The DDL lives here; the store reads and writes rows.
 */
export class Collections {
  /** Unique index name → the property path it keeps unique (for the fault that names it). */
  readonly uniqueIndexPaths = new Map<string, string>();
  /** Definitions whose table and indexes exist, valid while `generation` is unchanged. */
  private readonly ensuredDefs = new WeakMap<ObjectDef, { table: string; orgId: number; generation: number }>();
  private generation = 0;
  /** Each ensured table's key columns (query/expressions.ts), which its queries must name. */
  private readonly keyColumnsByTable = new Map<string, KeyColumns>();
  /** Tables in a bulk load: their non-unique indexes wait until the load ends. */
  private readonly bulkTables = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly statements: Statements,
  ) {}

  /** Creates the table and the indexes of every indexed scalar path (idempotent). */
  ensure(orgId: number, def: ObjectDef): string {
    // Hot path (every request): a definition object already ensured in this generation is done.
    // Definitions are replaced, never mutated, when they change, so identity is a safe key.
    const known = this.ensuredDefs.get(def);
    if (known && known.generation === this.generation && known.orgId === orgId) return known.table;
    const table = tableName(orgId, def);
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS "${table}" (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL${keyColumnDefinitions(def)})`,
    );
    const keyColumns = readKeyColumns(this.db, table);
    this.keyColumnsByTable.set(table, keyColumns);
    for (const index of indexSpecs(table, def, keyColumns)) {
      if (index.unique) this.uniqueIndexPaths.set(index.name, index.path);
      // During a bulk load only unique indexes exist; the rest are built once at the end.
      else if (this.bulkTables.has(table)) continue;
      createIndex(this.db, index);
    }
    // Kept during a bulk load too (every batch and every request on the table asks): endBulkLoad
    // moves the generation on, so the call after it builds the indexes the load dropped.
    this.ensuredDefs.set(def, { table, orgId, generation: this.generation });
    return table;
  }

  keyColumnsOf(table: string): KeyColumns {
    return this.keyColumnsByTable.get(table) ?? NO_KEY_COLUMNS;
  }

  /**
   * `ensure` for a definition just changed, in the transaction that saves it (a refused change
   * then drops nothing): also drops the indexes it no longer asks for. Only definition changes
   * call it, never the hot path; index names do not depend on key columns, so none are read.
   */
  applyDefinition(orgId: number, def: ObjectDef): string {
    const table = tableName(orgId, def);
    dropUnwantedIndexes(this.db, table, indexSpecs(table, def));
    this.ensuredDefs.delete(def); // its DDL must run again whatever it was ensured as before
    return this.ensure(orgId, def);
  }

  /**
   * Drops the non-unique indexes of a collection so a bulk load does not update them row by row;
   * `endBulkLoad` rebuilds them afterwards in one sorted pass each (much faster). Unique
   * indexes stay, so uniqueness is enforced throughout.
   */
  beginBulkLoad(orgId: number, def: ObjectDef): void {
    const table = this.ensure(orgId, def);
    this.bulkTables.add(table);
    const names = this.statements
      .fixed("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'ix\\_%' ESCAPE '\\'")
      .all(table) as { name: string }[];
    for (const { name } of names) this.db.exec(`DROP INDEX IF EXISTS "${name}"`);
    this.forget();
  }

  /** Ends a bulk load: rebuilds the indexes `beginBulkLoad` dropped. */
  endBulkLoad(orgId: number, def: ObjectDef): void {
    const table = tableName(orgId, def);
    this.bulkTables.delete(table);
    this.forget();
    withParallelSorter(this.db, () => this.ensure(orgId, def));
  }

  /** Drops a collection's table; returns its name. */
  drop(orgId: number, def: ObjectDef): string {
    const table = tableName(orgId, def);
    this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    this.keyColumnsByTable.delete(table);
    this.forget();
    return table;
  }

  /** Makes every definition go through `ensure`'s DDL again (indexes were dropped). */
  private forget(): void {
    this.generation++;
  }
}
