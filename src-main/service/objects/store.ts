import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { compileCountQuery, compileListQuery, propertyExpression } from '../query/compile.js';
import type { KeyColumns } from '../query/expressions.js';
import { uniqueWriteFault } from './index-ddl.js';
import { Collections, tableName, TYPE_NAME } from './collections.js';
import type { SqlFragment } from '../query/sql-fragment.js';
import type { Pipeline } from '../../../src-shared/query/pipeline/ast.js';
import type { PipelineCompileOptions } from '../query/pipeline/compile-pipeline.js';
import { KeptCompiles } from '../query/kept-compiles.js';
import { compileRowFilters, connectionLevelsQuery, type RowFilter } from '../query/row-filters.js';
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
import type { DataVersion } from '../db/data-version.js';

/**
 * The object repository: records of one org and object type in one table (collections.ts makes
 * the tables, their key columns and indexes). It builds the table-level SQL (by-id reads, writes);
 * conditions on documents come from the query compiler (`query/`), the access model's among them
 * (`RowFilter`s, query/row-filters.ts). The records service (records/) is its one caller for what
 * a caller reads and writes; a second storage engine would stand in for this class and `query/`.
 * Like every repository it binds every value.
 */
const NO_FRAGMENTS: readonly SqlFragment[] = [];

export class ObjectStore {
  private readonly ids: ObjectIdFactory;
  private readonly statements: Statements;
  /** Tables, key columns and indexes of each collection (collections.ts). */
  private readonly collections: Collections;
  /**
   * The read by `_id` of each table, prepared once and found by table name without building its
   * SQL text first: it is the hottest statement there is.
   */
  private readonly readById = new Map<string, Database.Statement>();
  /** SQL of the shared (kept) parsed queries, for reads with no added condition. */
  private readonly compiles = new KeptCompiles();
  /** Set once by the service that owns this store. */
  derivations: Derivations | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly versions?: DataVersion,
  ) {
    this.ids = new ObjectIdFactory(clock);
    this.statements = statements(db);
    this.collections = new Collections(db, this.statements);
  }

  /** The key columns of a collection's table (ensuring it), which SQL on it must name. */
  keyColumns(orgId: number, def: ObjectDef): KeyColumns {
    return this.keyColumnsOf(this.ensureCollection(orgId, def));
  }

  newId(): string {
    return this.ids.next();
  }

  table(orgId: number, def: ObjectDef): string {
    return tableName(orgId, def);
  }

  /** Creates the table and the indexes of every indexed scalar path (idempotent). */
  ensureCollection(orgId: number, def: ObjectDef): string {
    return this.collections.ensure(orgId, def);
  }

  /** `ensureCollection` for a definition just changed, dropping the indexes it no longer asks for. */
  applyDefinition(orgId: number, def: ObjectDef): string {
    return this.collections.applyDefinition(orgId, def);
  }

  /** Drops the non-unique indexes of a collection for a bulk load (collections.ts). */
  beginBulkLoad(orgId: number, def: ObjectDef): void {
    this.collections.beginBulkLoad(orgId, def);
  }

  /** Ends a bulk load: rebuilds the indexes `beginBulkLoad` dropped. */
  endBulkLoad(orgId: number, def: ObjectDef): void {
    this.collections.endBulkLoad(orgId, def);
  }

  private keyColumnsOf(table: string): KeyColumns {
    return this.collections.keyColumnsOf(table);
  }

  dropCollection(orgId: number, def: ObjectDef): void {
    this.readById.delete(this.collections.drop(orgId, def));
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
    this.run(`INSERT INTO "${table}" (_id, doc) VALUES (?, ?)`, [_id, JSON.stringify(doc)], !meta.uncached);
    this.derivations?.afterWrite(orgId, def);
    return { _id, doc };
  }

  get(orgId: number, def: ObjectDef, id: string): StoredRecord | undefined {
    const table = this.ensureCollection(orgId, def);
    const row = this.byId(table).get(id) as [_id: string, doc: string] | undefined;
    return row ? { _id: row[0], doc: JSON.parse(row[1]) as Doc } : undefined;
  }

  /** Like `get`, but with the stored JSON text; `doc` is parsed on first use (reads often need only the text). */
  getText(orgId: number, def: ObjectDef, id: string): (StoredRecord & { text: string }) | undefined {
    const table = this.ensureCollection(orgId, def);
    const row = this.byId(table).get(id) as [_id: string, doc: string] | undefined;
    return row ? lazyRecord(row[0], row[1]) : undefined;
  }

  private byId(table: string): Database.Statement {
    let stmt = this.readById.get(table);
    if (!stmt) {
      // Rows as arrays, as lists read them: no object with named keys per read.
      stmt = this.db.prepare(`SELECT _id, doc FROM "${table}" WHERE _id = ?`).raw();
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
   * Runs a validated list query; `filters` add conditions the caller does not control (access, a
   * list property's context). Each record keeps its stored JSON text and parses `doc` on first use:
   * a page whose records need no reshaping is written out without a parse/serialise round trip per
   * record. With `page.withKeys`, `lastKeys` holds the last row's sort-key values, which a walk
   * gives back as `page.after` to continue from there (keyset paging, query/row-filters.ts).
   */
  list(
    orgId: number,
    def: ObjectDef,
    query: ListQuery,
    filters: readonly RowFilter[] = [],
    page?: { after?: readonly unknown[]; withKeys?: boolean },
  ): { rows: (StoredRecord & { text: string })[]; hasMore: boolean; lastKeys?: unknown[] } {
    const table = this.ensureCollection(orgId, def);
    const columns = this.keyColumnsOf(table);
    const extraWhere = filters.length === 0 ? NO_FRAGMENTS : this.compileFilters(orgId, table, columns, filters);
    const options = page ? { table, extraWhere, columns, ...page } : { table, extraWhere, columns };
    const compiled = this.compiles.list(query, options);
    // Rows as [_id, doc] arrays, each record's doc parsed only if someone asks (pages of whole
    // records are written from the text).
    const raw = this.statements.dynamicRaw(compiled.sql).all(...compiled.params) as [string, string][];
    const hasMore = raw.length > query.limit;
    const n = hasMore ? query.limit : raw.length;
    const rows = new Array<LazyRecord>(n);
    for (let i = 0; i < n; i++) rows[i] = new LazyRecord(raw[i]![0], raw[i]![1]);
    if (!page?.withKeys || n === 0) return { rows, hasMore };
    return { rows, hasMore, lastKeys: raw[n - 1]!.slice(2) };
  }

  /**
   * Runs a validated aggregation pipeline (query/pipeline/): `filters` apply before its first stage.
   * Answers the page's output documents as JSON text, one more than `page.limit` telling `hasMore`.
   */
  aggregate(
    orgId: number,
    def: ObjectDef,
    pipeline: Pipeline,
    filters: readonly RowFilter[],
    page: Omit<PipelineCompileOptions, 'table' | 'columns' | 'extraWhere'>,
  ): { docs: string[]; hasMore: boolean } {
    const table = this.ensureCollection(orgId, def);
    const columns = this.keyColumnsOf(table);
    const extraWhere = filters.length === 0 ? NO_FRAGMENTS : this.compileFilters(orgId, table, columns, filters);
    const compiled = this.compiles.pipeline(pipeline, { ...page, table, columns, extraWhere });
    const docs = this.statements.dynamicRaw(compiled.sql).all(...compiled.params) as [string][];
    const hasMore = docs.length > page.limit;
    return { docs: docs.slice(0, page.limit).map((r) => r[0]), hasMore };
  }

  private compileFilters(orgId: number, table: string, columns: KeyColumns, filters: readonly RowFilter[]) {
    return compileRowFilters(filters, { table, columns }, (other) => {
      const table = this.ensureCollection(orgId, other);
      return { table, columns: this.keyColumnsOf(table) };
    });
  }

  /** The highest level active connections give `accountId` on each of `ids` (access/acl.ts). */
  connectionLevels(
    orgId: number,
    connections: ObjectDef,
    object: string,
    accountId: string,
    ids: string[],
    cap: number,
  ) {
    const table = this.ensureCollection(orgId, connections);
    const q = connectionLevelsQuery({ table, columns: this.keyColumnsOf(table) }, object, accountId, ids, cap);
    const levels = new Map<string, number>();
    const rows = this.statements.dynamic(q.sql).all(...q.params) as { id: string; level: number | null }[];
    for (const row of rows) if (typeof row.level === 'number') levels.set(row.id, row.level);
    return levels;
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

  /** How many records a query matches (its where and `filters`, e.g. the ACL), less `skip`. */
  countMatching(orgId: number, def: ObjectDef, query: ListQuery, filters: readonly RowFilter[] = []): number {
    const table = this.ensureCollection(orgId, def);
    const columns = this.keyColumnsOf(table);
    const extraWhere = filters.length === 0 ? NO_FRAGMENTS : this.compileFilters(orgId, table, columns, filters);
    const compiled = compileCountQuery(query.where, { table, extraWhere, columns });
    const row = this.statements.dynamic(compiled.sql).get(...compiled.params) as { n: number };
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

  private run(sql: string, params: unknown[], bump = true) {
    if (bump) this.versions?.bump(); // caches of records (roles) must not outlive a write
    return this.translate(() => this.statements.dynamic(sql).run(...params));
  }

  /** Turns constraint failures into faults that name the property. */
  private translate<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw uniqueWriteFault(err, this.collections.uniqueIndexPaths) ?? err;
    }
  }
}
