/** Issue #13, item 8: backups are the owner's alone and leave nothing half-written behind. */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modeOf, useWideOpenDataDir } from '../service/testing/wide-open-folder.js';
import { openService } from '../service/open-service.js';
import { backupCommand } from './backup.js';

const dataDir = useWideOpenDataDir();

describe('backup files', () => {
  it('writes backups 0600 and leaves no .partial-* file behind, on success or failure', async () => {
    openService({ dataDir: dataDir() }).close();
    const outDir = mkdtempSync(join(tmpdir(), 'backups-'));
    chmodSync(outDir, 0o777);
    try {
      await backupCommand(['--data-dir', dataDir(), '--out', join(outDir, 'copy.db')]);
      expect(modeOf(join(outDir, 'copy.db')).toString(8)).toBe('600');
      writeFileSync(join(dataDir(), 'service.db'), 'this is not a database, and far too short to be one'.repeat(100));
      await expect(backupCommand(['--data-dir', dataDir(), '--out', join(outDir, 'broken.db')])).rejects.toThrow();
      expect(readdirSync(outDir).join()).toBe('copy.db');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
