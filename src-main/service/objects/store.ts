import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { compileListQuery, propertyExpression } from '../query/compile.js';
import { indexSpecs } from '../query/indexes.js';
import { NO_KEY_COLUMNS, type KeyColumns } from '../query/expressions.js';
import { keyColumnDefinitions, readKeyColumns } from './key-columns.js';
import { createIndex, dropUnwantedIndexes, uniqueWriteFault } from './index-ddl.js';
import type { SqlFragment } from '../query/sql-fragment.js';
import { ObjectIdFactory } from './ids.js';
import type { Doc, Json } from './validate.js';
import {
  LazyRecord,
  lazyRecord,
  reference,
  pickKeys,
  stripNulls,
  type Derivations,
  type StoredRecord,
  type WriteMeta,
} from './stored-record.js';
import { statements, type Statements } from '../db/statements.js';
import { withParallelSorter } from '../db/parallel-sorter.js';
import type { DataVersion } from '../db/data-version.js';

const TYPE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * The object repository: one SQLite table per org and object type, `(_id, doc)` plus a key column
 * per non-unique indexed path (query/expressions.ts; tables made before them have none), with an
 * index on each indexed path (over its key column, else over its `json_extract` expression). It
 * builds the table-level SQL (DDL, by-id reads, writes); conditions on documents come from the
 * query compiler (`query/`), the ACL's among them. Like every repository it binds every value.
 */
export class ObjectStore {
  private readonly ids: ObjectIdFactory;
  private readonly statements: Statements;
  private readonly uniqueIndexPaths = new Map<string, string>();
  /**
   * The read by `_id` of each table, prepared once and found by table name without building its
   * SQL text first: it is the hottest statement there is.
   */
  private readonly readById = new Map<string, Database.Statement>();
  /** Definitions whose table and indexes exist, valid while `generation` is unchanged. */
  private readonly ensuredDefs = new WeakMap<ObjectDef, { table: string; orgId: number; generation: number }>();
  private generation = 0;
  /** Each ensured table's key columns (query/expressions.ts), which its queries must name. */
  private readonly keyColumnsByTable = new Map<string, KeyColumns>();
  /** Tables in a bulk load: their non-unique indexes wait until the load ends. */
  private readonly bulkTables = new Set<string>();
  /** Set once by the service that owns this store. */
  derivations: Derivations | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly versions?: DataVersion,
  ) {
    this.ids = new ObjectIdFactory(clock);
    this.statements = statements(db);
  }

  /**
   * Records of `def` whose `context` references the given instance (list properties such as
   * connections), for `list`'s `extraWhere`.
   */
  contextEquals(orgId: number, def: ObjectDef, id: string): SqlFragment {
    return { sql: `${propertyExpression('context._id', this.keyColumns(orgId, def))} = ?`, params: [id] };
  }

  /** The key columns of a collection's table (ensuring it), which SQL on it must name. */
  keyColumns(orgId: number, def: ObjectDef): KeyColumns {
    return this.keyColumnsOf(this.ensureCollection(orgId, def));
  }

  newId(): string {
    return this.ids.next();
  }

  table(orgId: number, def: ObjectDef): string {
    if (!Number.isSafeInteger(orgId) || !TYPE_NAME.test(def.name))
      throw new Error(`bad collection ${orgId}/${def.name}`);
    return `o${orgId}_${def.name}`;
  }

  /** Creates the table and the indexes of every indexed scalar path (idempotent). */
  ensureCollection(orgId: number, def: ObjectDef): string {
    // Hot path (every request): a definition object already ensured in this generation is done.
    // Definitions are replaced, never mutated, when they change, so identity is a safe key.
    const known = this.ensuredDefs.get(def);
    if (known && known.generation === this.generation && known.orgId === orgId) return known.table;
    const table = this.table(orgId, def);
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

  /**
   * `ensureCollection` for a definition just changed, in the transaction that saves it (a refused
   * change then drops nothing): also drops the indexes it no longer asks for. Only definition
   * changes call it, never the hot path; index names do not depend on key columns, so none are read.
   */
  applyDefinition(orgId: number, def: ObjectDef): string {
    const table = this.table(orgId, def);
    dropUnwantedIndexes(this.db, table, indexSpecs(table, def));
    this.ensuredDefs.delete(def); // its DDL must run again whatever it was ensured as before
    return this.ensureCollection(orgId, def);
  }

  /**
   * Drops the non-unique indexes of a collection so a bulk load does not update them row by row;
   * `endBulkLoad` rebuilds them afterwards in one sorted pass each (much faster). Unique
   * indexes stay, so uniqueness is enforced throughout.
   */
  beginBulkLoad(orgId: number, def: ObjectDef): void {
    const table = this.ensureCollection(orgId, def);
    this.bulkTables.add(table);
    const names = this.statements
      .fixed("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'ix\\_%' ESCAPE '\\'")
      .all(table) as { name: string }[];
    for (const { name } of names) this.db.exec(`DROP INDEX IF EXISTS "${name}"`);
    this.forget();
  }

  /** Ends a bulk load: rebuilds the indexes `beginBulkLoad` dropped. */
  endBulkLoad(orgId: number, def: ObjectDef): void {
    const table = this.table(orgId, def);
    this.bulkTables.delete(table);
    this.forget();
    withParallelSorter(this.db, () => this.ensureCollection(orgId, def));
  }

  private keyColumnsOf(table: string): KeyColumns {
    return this.keyColumnsByTable.get(table) ?? NO_KEY_COLUMNS;
  }

  /** Makes every definition go through `ensureCollection`'s DDL again (indexes were dropped). */
  private forget(): void {
    this.generation++;
  }

  dropCollection(orgId: number, def: ObjectDef): void {
    const table = this.table(orgId, def);
    this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    this.readById.delete(table);
    this.keyColumnsByTable.delete(table);
    this.forget();
  }

  insert(orgId: number, def: ObjectDef, values: Record<string, Json>, meta: WriteMeta = {}): StoredRecord {
    const table = this.ensureCollection(orgId, def);
    const now = new Date(this.clock.now()).toISOString();
    const _id = meta._id ?? this.ids.next();
    const doc: Doc = {
      ...stripNulls(values),
      created: meta.created ?? now,
      updated: meta.updated ?? meta.created ?? now,
    };
    if (meta.updaterId) doc.updater = reference('account', meta.updaterId);
    this.derivations?.derive(orgId, def, doc);
    this.run(`INSERT INTO "${table}" (_id, doc) VALUES (?, ?)`, [_id, JSON.stringify(doc)]);
    this.derivations?.afterWrite(orgId, def);
    return { _id, doc };
  }

  get(orgId: number, def: ObjectDef, id: string): StoredRecord | undefined {
    const table = this.ensureCollection(orgId, def);
    const row = this.byId(table).get(id) as { _id: string; doc: string } | undefined;
    return row ? { _id: row._id, doc: JSON.parse(row.doc) as Doc } : undefined;
  }

  /** Like `get`, but with the stored JSON text; `doc` is parsed on first use (reads often need only the text). */
  getText(orgId: number, def: ObjectDef, id: string): (StoredRecord & { text: string }) | undefined {
    const table = this.ensureCollection(orgId, def);
    const row = this.byId(table).get(id) as { _id: string; doc: string } | undefined;
    return row ? lazyRecord(row._id, row.doc) : undefined;
  }

  private byId(table: string): Database.Statement {
    let stmt = this.readById.get(table);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT _id, doc FROM "${table}" WHERE _id = ?`);
      this.readById.set(table, stmt);
    }
    return stmt;
  }

  /**
   * A few top-level values of one record without parsing the whole document (authentication reads
   * the caller's email and roles on every request). Arrays and documents come back as JSON.
   */
  getValues(orgId: number, def: ObjectDef, id: string, paths: string[]): Record<string, unknown> | undefined {
    const table = this.ensureCollection(orgId, def);
    // A key column holds exactly what json_extract gives, without parsing the document again.
    const keyColumns = this.keyColumnsOf(table);
    const columns = paths.map((p, i) => `${propertyExpression(p, keyColumns)} AS v${i}`).join(', ');
    const row = this.statements.dynamic(`SELECT ${columns} FROM "${table}" WHERE _id = ?`).get(id) as
      Record<string, unknown> | undefined;
    return row ? Object.fromEntries(paths.map((p, i) => [p, row[`v${i}`]])) : undefined;
  }

  /** PATCH merges (null unsets); PUT replaces every writable property. */
  update(
    orgId: number,
    def: ObjectDef,
    id: string,
    values: Record<string, Json>,
    meta: WriteMeta & { replace?: boolean; keep?: string[] } = {},
  ): StoredRecord | undefined {
    const table = this.ensureCollection(orgId, def);
    return this.db.transaction(() => {
      const current = this.get(orgId, def, id);
      if (!current) return undefined;
      const base: Doc = meta.replace ? pickKeys(current.doc, ['created', ...(meta.keep ?? [])]) : { ...current.doc };
      const doc = stripNulls({ ...base, ...values });
      doc.created = current.doc.created ?? new Date(this.clock.now()).toISOString();
      doc.updated = new Date(this.clock.now()).toISOString();
      if (meta.updaterId) doc.updater = reference('account', meta.updaterId);
      this.derivations?.derive(orgId, def, doc);
      this.run(`UPDATE "${table}" SET doc = ? WHERE _id = ?`, [JSON.stringify(doc), id]);
      this.derivations?.afterWrite(orgId, def);
      return { _id: id, doc };
    })();
  }

  delete(orgId: number, def: ObjectDef, id: string): boolean {
    const table = this.ensureCollection(orgId, def);
    const deleted = this.run(`DELETE FROM "${table}" WHERE _id = ?`, [id]).changes > 0;
    if (deleted) this.derivations?.afterWrite(orgId, def);
    return deleted;
  }

  count(orgId: number, def: ObjectDef): number {
    const table = this.ensureCollection(orgId, def);
    return (this.statements.dynamic(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  }

  /**
   * Runs a validated list query; `extraWhere` adds conditions the caller does not control (context,
   * ACL). Each record keeps its stored JSON text and parses `doc` on first use: a page whose records
   * need no reshaping is written out without a parse/serialise round trip per record.
   */
  list(
    orgId: number,
    def: ObjectDef,
    query: ListQuery,
    extraWhere: readonly SqlFragment[] = [],
  ): { rows: (StoredRecord & { text: string })[]; hasMore: boolean } {
    const table = this.ensureCollection(orgId, def);
    const compiled = compileListQuery(query, { table, extraWhere, columns: this.keyColumnsOf(table) });
    // Rows as [_id, doc] arrays, each record's doc parsed only if someone asks (pages of whole
    // records are written from the text).
    const raw = this.statements.dynamicRaw(compiled.sql).all(...compiled.params) as [string, string][];
    const hasMore = raw.length > query.limit;
    const n = hasMore ? query.limit : raw.length;
    const rows = new Array<LazyRecord>(n);
    for (let i = 0; i < n; i++) rows[i] = new LazyRecord(raw[i]![0], raw[i]![1]);
    return { rows, hasMore };
  }

  /**
   * Streams every record a query matches (skip honoured, limit ignored): exports read constant
   * memory whatever the result size.
   */
  *iterate(orgId: number, def: ObjectDef, query: ListQuery): Generator<StoredRecord> {
    const table = this.ensureCollection(orgId, def);
    const compiled = compileListQuery(
      { ...query, limit: Number.MAX_SAFE_INTEGER - 1 },
      { table, columns: this.keyColumnsOf(table) },
    );
    // Prepared for this walk alone: a statement is busy while an iterator is open on it, so a cached
    // one would fail any other use (or a second export) until this walk ends.
    for (const r of this.db.prepare(compiled.sql).iterate(...compiled.params) as Iterable<{
      _id: string;
      doc: string;
    }>) {
      yield { _id: r._id, doc: JSON.parse(r.doc) as Doc };
    }
  }

  /** How many records a query matches (its where and `extraWhere`, e.g. the ACL), less `skip`. */
  countMatching(orgId: number, def: ObjectDef, query: ListQuery, extraWhere: readonly SqlFragment[] = []): number {
    const table = this.ensureCollection(orgId, def);
    const compiled = compileListQuery(
      { ...query, sort: [], skip: 0, limit: Number.MAX_SAFE_INTEGER - 1 },
      { table, extraWhere, columns: this.keyColumnsOf(table) },
    );
    const row = this.statements.dynamic(`SELECT count(*) AS n FROM (${compiled.sql})`).get(...compiled.params) as {
      n: number;
    };
    return Math.max(0, row.n - query.skip);
  }

  /**
   * The `_id` and values of records in which any of the named top-level array properties is not
   * empty (the accounts that hold roles): one scan, paths bound.
   */
  withNonEmptyArrays(orgId: number, def: ObjectDef, names: readonly string[]): StoredRecord[] {
    const table = this.ensureCollection(orgId, def);
    if (names.length === 0 || names.some((n) => !TYPE_NAME.test(n))) return [];
    const test = names.map(() => `coalesce(json_array_length(doc, ?), 0) > 0`).join(' OR ');
    const rows = this.statements
      .dynamic(`SELECT _id, doc FROM "${table}" WHERE ${test}`)
      .all(...names.map((n) => `$.${n}`)) as { _id: string; doc: string }[];
    return rows.map((r) => ({ _id: r._id, doc: JSON.parse(r.doc) as Doc }));
  }

  /**
   * Bulk insert of documents already serialised, in one transaction (the demo seeder, whose worker
   * writes the JSON): the caller has applied the derivations to each text (`derivedFields` in
   * stored-record.ts).
   */
  insertTexts(orgId: number, def: ObjectDef, records: { _id: string; text: string }[]): void {
    const table = this.ensureCollection(orgId, def);
    const stmt = this.statements.dynamic(`INSERT INTO "${table}" (_id, doc) VALUES (?, ?)`);
    this.versions?.bump();
    this.db.transaction(() => {
      for (const r of records) this.translate(() => stmt.run(r._id, r.text));
      this.derivations?.afterWrite(orgId, def);
    })();
  }

  private run(sql: string, params: unknown[]) {
    this.versions?.bump(); // caches of records (roles) must not outlive a write
    return this.translate(() => this.statements.dynamic(sql).run(...params));
  }

  /** Turns constraint failures into faults that name the property. */
  private translate<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw uniqueWriteFault(err, this.uniqueIndexPaths) ?? err;
    }
  }
}
