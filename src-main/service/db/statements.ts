import type Database from 'better-sqlite3';
import type { Db } from './open.js';
import { StatementCache } from './statement-cache.js';

/** Room for the text the query compiler builds at run time (per table, per query shape). */
const DYNAMIC_LIMIT = 500;

/**
 * The one way service code prepares SQL: one instance per database, reached with `statements(db)`.
 * Preparing is the costly part, so each distinct text is prepared once. Fixed text (a literal in a
 * repository) is kept for the life of the database; text built at run time goes through a bounded
 * LRU so that query shapes cannot grow memory without limit.
 */
export class Statements {
  private readonly fixedByText = new Map<string, Database.Statement>();
  private readonly dynamicByText: StatementCache;
  private readonly dynamicRawByText: StatementCache;

  constructor(private readonly db: Db) {
    this.dynamicByText = new StatementCache(db, DYNAMIC_LIMIT);
    this.dynamicRawByText = new StatementCache(db, DYNAMIC_LIMIT, true);
  }

  /** A statement for SQL text written in the source (a finite set): prepared on first use, then kept. */
  fixed(sql: string): Database.Statement {
    let stmt = this.fixedByText.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.fixedByText.set(sql, stmt);
    }
    return stmt;
  }

  /** A statement for SQL text built at run time (compiler output): least recently used evicted. */
  dynamic(sql: string): Database.Statement {
    return this.dynamicByText.get(sql);
  }

  /**
   * The same, answering rows as arrays of column values: no object with named keys per row (a
   * 1,000-row list page reads about twice as fast). Kept apart from `dynamic`, since a statement's
   * mode is a property of the statement and callers of one text must not see each other's.
   */
  dynamicRaw(sql: string): Database.Statement {
    return this.dynamicRawByText.get(sql);
  }
}

// Keyed on the connection itself, so a repository built in a test shares statements with the
// Service on the same database, and a closed database takes its statements with it.
const byDb = new WeakMap<Db, Statements>();

/** The statement cache of a database. Repositories call this once, in their constructor. */
export function statements(db: Db): Statements {
  let found = byDb.get(db);
  if (!found) byDb.set(db, (found = new Statements(db)));
  return found;
}
