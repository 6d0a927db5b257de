import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3, … with no gaps; the order they run in. */
  version: number;
  name: string;
  sql: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function migrationHash(m: Migration): string {
  return createHash('sha256').update(`${m.version}\n${m.name}\n${m.sql}`).digest('hex');
}

/**
 * Applies pending migrations, each in its own transaction, and refuses to start when an applied
 * migration was edited afterwards (its hash differs) or when the database is newer than the code.
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[]): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new MigrationError(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = db.prepare('SELECT version, name, hash FROM schema_migrations ORDER BY version').all() as {
    version: number;
    name: string;
    hash: string;
  }[];
  for (const row of applied) {
    const m = migrations[row.version - 1];
    if (!m)
      throw new MigrationError(`database has migration ${row.version} (${row.name}) that this version does not know`);
    if (migrationHash(m) !== row.hash) {
      throw new MigrationError(`migration ${row.version} (${row.name}) was edited after it was applied`);
    }
  }
  const insert = db.prepare('INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)');
  let count = 0;
  for (const m of migrations.slice(applied.length)) {
    db.transaction(() => {
      db.exec(m.sql);
      insert.run(m.version, m.name, migrationHash(m), new Date().toISOString());
    })();
    count++;
  }
  return count;
}
