/**
 * `admin backup` and `admin restore`: a consistent copy of a data dir's database, taken online.
 *
 *   backup  --data-dir D --out FILE [--force]    while the service runs; refuses to overwrite FILE
 *   restore --data-dir D --from FILE [--force]   only while no service holds D; refuses to replace an
 *                                                existing database without --force
 *
 * Backup uses SQLite's online backup API (better-sqlite3 `db.backup()`): it reads a consistent
 * snapshot while writers carry on, so every write acknowledged before the backup began is in it.
 * The copy is checked with `PRAGMA integrity_check` before it is published (renamed into place).
 *
 * The master key (master.key, SERVICE_MASTER_KEY or the desktop keychain) is NOT in the backup, on
 * purpose: app secrets and private keys in the database are encrypted with it, so a stolen backup
 * alone reveals none of them. Keep the key apart from the backups; a restore needs the same key.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { DB_FILE } from '../service/open-service.js';
import { ensurePrivateFile, makeDatabaseFilesPrivate } from '../service/db/private-files.js';
import { CliError, defaultDataDir } from './args.js';

/** Pages per backup step: large, so a busy writer cannot keep restarting a small-step backup. */
const PAGES_PER_STEP = 1 << 20;

function options(argv: string[], file: 'out' | 'from') {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, [file]: { type: 'string' }, force: { type: 'boolean' } },
    strict: true,
  });
  const path = values[file];
  if (typeof path !== 'string' || path === '') throw new CliError(`--${file} FILE is required`);
  const dataDir = resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir());
  return { dataDir, file: resolve(path), force: values.force === true };
}

/** Throws unless `file` is a readable SQLite database that passes integrity_check. */
export function checkIntegrity(file: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    if (rows.length !== 1 || rows[0]?.integrity_check !== 'ok') {
      throw new CliError(`${file} failed integrity_check: ${rows.map((r) => r.integrity_check).join('; ')}`);
    }
  } finally {
    db.close();
  }
}

export async function backupCommand(argv: string[]): Promise<void> {
  const { dataDir, file, force } = options(argv, 'out');
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new CliError(`no database in ${dataDir}`);
  if (existsSync(file) && !force) throw new CliError(`${file} exists; give --force to overwrite it`);
  // A unique name per run (two backups to one path never share a file), private from the start.
  const tmp = `${file}.partial-${randomBytes(6).toString('hex')}`;
  ensurePrivateFile(tmp);
  // A plain connection: no migrations, no pragmas that write. busy_timeout rides out a checkpoint.
  let published = false;
  try {
    const db = new Database(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const { totalPages } = await db.backup(tmp, { progress: () => PAGES_PER_STEP });
      standalone(tmp);
      checkIntegrity(tmp);
      makeDatabaseFilesPrivate(tmp);
      renameSync(tmp, file);
      published = true;
      console.log(JSON.stringify({ backup: file, pages: totalPages }));
    } finally {
      db.close();
    }
  } finally {
    // After close: a failed copy's -wal and -shm exist until its last handle is gone.
    if (!published) removeWithCompanions(tmp);
  }
  console.error('note: the master key is not in the backup; a restore needs the same key.');
}

/**
 * The copy inherits WAL mode from the source; a backup is one self-contained file, so it is turned
 * into a rollback-journal database (which folds in and removes its -wal and -shm) before checking.
 */
function standalone(path: string): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** A half-written copy and the journal SQLite may have left beside it. */
function removeWithCompanions(path: string): void {
  for (const p of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}

/**
 * True when another connection (a running service, an import) holds the database: SQLite removes
 * the -wal file when the LAST connection closes, so if it survives our own open-and-close, someone
 * else has the database open.
 */
export function databaseInUse(dbFile: string): boolean {
  if (!existsSync(dbFile)) return false;
  new Database(dbFile, { fileMustExist: true }).close();
  return existsSync(`${dbFile}-wal`);
}

export async function restoreCommand(argv: string[]): Promise<void> {
  const { dataDir, file, force } = options(argv, 'from');
  if (!existsSync(file)) throw new CliError(`--from ${file} does not exist`);
  checkIntegrity(file);
  const target = join(dataDir, DB_FILE);
  if (databaseInUse(target)) {
    throw new CliError(`a service (or another tool) has ${dataDir} open; stop it before restoring`);
  }
  if (existsSync(target) && !force) {
    throw new CliError(`${target} exists; give --force to replace it with ${file}`);
  }
  const tmp = `${target}.restoring`;
  removeWithCompanions(tmp);
  ensurePrivateFile(tmp);
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(tmp, { progress: () => PAGES_PER_STEP });
    checkIntegrity(tmp);
  } catch (err) {
    removeWithCompanions(tmp);
    throw err;
  } finally {
    source.close();
  }
  makeDatabaseFilesPrivate(tmp);
  // The old database's WAL belongs to the old file: it must not be replayed onto the restored one.
  rmSync(`${target}-wal`, { force: true });
  rmSync(`${target}-shm`, { force: true });
  renameSync(tmp, target);
  console.log(JSON.stringify({ restored: target, from: file }));
}
