import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';

const found = findElectronBinary();
const missing = 'missing' in found ? found.missing : undefined;

test.describe('desktop app (Electron)', () => {
  test.skip(missing !== undefined, `SKIPPED: Electron binary not available on this machine (${missing}).`);

  test('opens a hardened window on the console', async () => {
    if (missing) console.log(`Electron smoke test skipped: ${missing}`);
    const app = await electron.launch({
      executablePath: (found as { path: string }).path,
      args: ['.'],
      env: { ...process.env, SERVICE_DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-electron-')) },
    });
    const window = await app.firstWindow();
    await expect(window.getByTestId('app-ready')).toBeAttached();
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    // No preload bridge: the page gets nothing from the shell.
    expect(await window.evaluate(() => typeof (window as unknown as { consoleShell?: unknown }).consoleShell)).toBe(
      'undefined',
    );
    await window.screenshot({ path: 'e2e/artifacts/electron-window.png' });
    await app.close();
  });
});

if (missing) console.log(`[e2e] Electron smoke test will be skipped: ${missing}.`);
