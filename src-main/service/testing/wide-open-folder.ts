/**
 * Test setup for the data-at-rest promises (issue #13, item 8): a fresh data folder that already
 * exists with wide rights, under a umask that masks nothing — the worst case a file mode must hold in.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';

/** Registers the setup and teardown for the calling test file; read the folder with the returned getter. */
export function useWideOpenDataDir(): () => string {
  let dir = '';
  let umask = 0;
  beforeEach(() => {
    umask = process.umask(0);
    dir = mkdtempSync(join(tmpdir(), 'private-'));
    chmodSync(dir, 0o777);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.umask(umask);
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** A file's permission bits. */
export const modeOf = (path: string): number => statSync(path).mode & 0o777;
