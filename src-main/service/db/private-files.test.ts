/** Issue #13, item 8: data at rest is the owner's alone, whatever the umask and the folder's rights. */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modeOf, useWideOpenDataDir } from '../testing/wide-open-folder.js';
import { openService } from '../open-service.js';
import { openDatabase } from './open.js';

const dataDir = useWideOpenDataDir();

describe('file modes', () => {
  it('creates service.db, its -wal and -shm, and master.key 0600 inside an existing 0777 folder', () => {
    const svc = openService({ dataDir: dataDir() });
    try {
      svc.db.prepare('CREATE TABLE t (x)').run();
      svc.db.prepare('INSERT INTO t VALUES (1)').run();
      for (const name of ['service.db', 'service.db-wal', 'service.db-shm', 'master.key']) {
        expect(modeOf(join(dataDir(), name)).toString(8), name).toBe('600');
      }
    } finally {
      svc.close();
    }
  });

  it('narrows a database file made earlier with wider rights', () => {
    writeFileSync(join(dataDir(), 'service.db'), '', { mode: 0o644 });
    chmodSync(join(dataDir(), 'service.db'), 0o644);
    openService({ dataDir: dataDir() }).close();
    expect(modeOf(join(dataDir(), 'service.db')).toString(8)).toBe('600');
  });
});

describe('synchronous', () => {
  it('is NORMAL by default and FULL when asked for', () => {
    const normal = openDatabase({ file: join(dataDir(), 'a.db') });
    const full = openDatabase({ file: join(dataDir(), 'b.db'), synchronous: 'full' });
    expect(normal.pragma('synchronous', { simple: true })).toBe(1);
    expect(full.pragma('synchronous', { simple: true })).toBe(2);
    normal.close();
    full.close();
  });
});
