import type Database from 'better-sqlite3';

/**
 * Tells in-memory caches when the database changed under them. SQLite's `data_version` moves when
 * another connection commits (the admin CLI, a second service on the same data dir); this
 * connection's own writes are counted by `bump()`, called by the repositories that cache.
 */
export class DataVersion {
  private readonly statement: Database.Statement;
  /** Moves on every change seen; a number, so the caches' per-lookup check allocates nothing. */
  private generation = 0;
  /** Moves only when another connection committed (never on `bump()`). */
  private externalGeneration = 0;
  private lastRead: { value: number; at: number } | undefined;

  /**
   * @param maxStalenessMs How long a read of SQLite's counter serves later calls. Every SQLite
   *   statement takes and releases the WAL read locks (system calls, dear on a virtual machine),
   *   and each request consults several caches (org, app, session, account, roles): a read per
   *   lookup cost more than the record read a request is for. Under load one read serves dozens
   *   of requests. 0 reads on every call.
   * @param now A monotonic clock in milliseconds (tests replace it).
   */
  constructor(
    db: Database.Database,
    private readonly maxStalenessMs = 1,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.statement = db.prepare('PRAGMA data_version').pluck();
  }

  /**
   * Changes whenever anything was committed since the last call that returned the same value:
   * this connection's writes at once (`bump()`), another process's within `maxStalenessMs` — far
   * below anything a person or a script starting the admin CLI could observe.
   */
  current(): number {
    const at = this.now();
    if (this.lastRead === undefined || at - this.lastRead.at >= this.maxStalenessMs) {
      const value = this.statement.get() as number;
      if (this.lastRead !== undefined && value !== this.lastRead.value) {
        this.generation++;
        this.externalGeneration++;
      }
      this.lastRead = { value, at };
    }
    return this.generation;
  }

  bump(): void {
    this.generation++;
  }

  /**
   * Changes another connection committed (another process on the data folder, the admin CLI), read
   * as `current()` reads them. Caches of things this process tells apart itself (its own writes of
   * script records) key on it, so this connection's other writes do not empty them.
   */
  externalChanges(): number {
    this.current();
    return this.externalGeneration;
  }
}

/** A map that empties itself when the data version moves. */
export class VersionedCache<K, V> {
  private readonly map = new Map<K, V>();
  private version = -1;

  constructor(
    private readonly versions: DataVersion,
    private readonly max = 1000,
    /** Called whenever the cache empties, for indexes kept beside it. */
    private readonly onClear?: () => void,
  ) {}

  get(key: K, load: () => V): V {
    const now = this.versions.current();
    if (now !== this.version) {
      this.clear();
      this.version = now;
    }
    // One lookup for a hit (every request makes several); `has` only tells a cached undefined apart.
    const hit = this.map.get(key);
    if (hit !== undefined || this.map.has(key)) return hit as V;
    // Emptied before loading, so what `load` records beside the cache (onClear) survives.
    if (this.map.size >= this.max) this.clear();
    const value = load();
    this.map.set(key, value);
    return value;
  }

  private clear(): void {
    this.map.clear();
    this.onClear?.();
  }
}
