/** Issue #13, item 8: data at rest is the owner's alone, whatever the umask and the folder's rights. */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openService } from '../open-service.js';
import { openDatabase } from './open.js';

let dir: string;
let umask: number;
beforeEach(() => {
  umask = process.umask(0); // the worst case: nothing masked
  dir = mkdtempSync(join(tmpdir(), 'private-'));
  chmodSync(dir, 0o777); // a folder that already exists with wide rights
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  process.umask(umask);
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('file modes', () => {
  it('creates service.db, its -wal and -shm, and master.key 0600 inside an existing 0777 folder', () => {
    const svc = openService({ dataDir: dir });
    try {
      svc.db.prepare('CREATE TABLE t (x)').run();
      svc.db.prepare('INSERT INTO t VALUES (1)').run();
      for (const name of ['service.db', 'service.db-wal', 'service.db-shm', 'master.key']) {
        expect(modeOf(join(dir, name)).toString(8), name).toBe('600');
      }
    } finally {
      svc.db.close();
    }
  });

  it('narrows a database file made earlier with wider rights', () => {
    writeFileSync(join(dir, 'service.db'), '', { mode: 0o644 });
    chmodSync(join(dir, 'service.db'), 0o644);
    openService({ dataDir: dir }).db.close();
    expect(modeOf(join(dir, 'service.db')).toString(8)).toBe('600');
  });
});

describe('synchronous', () => {
  it('is NORMAL by default and FULL when asked for', () => {
    const normal = openDatabase({ file: join(dir, 'a.db') });
    const full = openDatabase({ file: join(dir, 'b.db'), synchronous: 'full' });
    expect(normal.pragma('synchronous', { simple: true })).toBe(1);
    expect(full.pragma('synchronous', { simple: true })).toBe(2);
    normal.close();
    full.close();
  });
});
