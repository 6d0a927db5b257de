import type Database from 'better-sqlite3';

/**
 * Tells in-memory caches when the database changed under them. SQLite's `data_version` moves when
 * another connection commits (the admin CLI, a second service on the same data dir); this
 * connection's own writes are counted by `bump()`, called by the repositories that cache.
 */
export class DataVersion {
  private readonly statement: Database.Statement;
  private local = 0;

  constructor(db: Database.Database) {
    this.statement = db.prepare('PRAGMA data_version').pluck();
  }

  /** Changes whenever anything was committed since the last call that returned the same value. */
  current(): string {
    return `${this.statement.get() as number}:${this.local}`;
  }

  bump(): void {
    this.local++;
  }
}

/** A map that empties itself when the data version moves. */
export class VersionedCache<K, V> {
  private readonly map = new Map<K, V>();
  private version = '';

  constructor(
    private readonly versions: DataVersion,
    private readonly max = 1000,
  ) {}

  get(key: K, load: () => V): V {
    const now = this.versions.current();
    if (now !== this.version) {
      this.map.clear();
      this.version = now;
    }
    if (this.map.has(key)) return this.map.get(key) as V;
    const value = load();
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
    return value;
  }
}
