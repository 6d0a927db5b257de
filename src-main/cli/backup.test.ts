/** Issue #13, item 8: backups are the owner's alone and leave nothing half-written behind. */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openService } from '../service/open-service.js';
import { backupCommand } from './backup.js';

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

describe('backup files', () => {
  it('writes backups 0600 and leaves no .partial-* file behind, on success or failure', async () => {
    openService({ dataDir: dir }).db.close();
    const outDir = mkdtempSync(join(tmpdir(), 'backups-'));
    chmodSync(outDir, 0o777);
    try {
      await backupCommand(['--data-dir', dir, '--out', join(outDir, 'copy.db')]);
      expect(modeOf(join(outDir, 'copy.db')).toString(8)).toBe('600');
      writeFileSync(join(dir, 'service.db'), 'this is not a database, and far too short to be one'.repeat(100));
      await expect(backupCommand(['--data-dir', dir, '--out', join(outDir, 'broken.db')])).rejects.toThrow();
      expect(readdirSync(outDir).join()).toBe('copy.db');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
