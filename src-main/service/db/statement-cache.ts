import type Database from 'better-sqlite3';

/** Prepared statements by SQL text, least recently used evicted: preparing is the costly part. */
export class StatementCache {
  private readonly map = new Map<string, Database.Statement>();
  constructor(
    private readonly db: Database.Database,
    private readonly max: number,
    /** Statements answer rows as arrays of column values (better-sqlite3's raw mode). */
    private readonly raw = false,
  ) {}

  get(sql: string): Database.Statement {
    let stmt = this.map.get(sql);
    if (stmt) {
      this.map.delete(sql);
    } else {
      stmt = this.db.prepare(sql);
      if (this.raw) stmt.raw(true);
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    }
    this.map.set(sql, stmt);
    return stmt;
  }
}
