import { chmodSync, existsSync, writeFileSync } from 'node:fs';

/** Owner read/write only: the database, its WAL, backups and the master key. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `path` empty with mode 0600 when absent, and sets 0600 either way. The explicit chmod is
 * what makes this hold whatever the umask, and for a file made earlier with wider rights: a
 * folder that already exists keeps its own rights, so the files in it must guard themselves.
 */
export function ensurePrivateFile(path: string): void {
  try {
    writeFileSync(path, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Sets 0600 on a database file and whichever of its `-wal`, `-shm` and `-journal` companions exist.
 * SQLite gives companions the main file's mode, so this mostly repairs files made before.
 */
export function makeDatabaseFilesPrivate(dbFile: string): void {
  for (const path of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) {
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}
