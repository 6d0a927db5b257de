import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';

const found = findElectronBinary();
const missing = 'missing' in found ? found.missing : undefined;

test.describe('desktop app (Electron)', () => {
  test('opens a hardened window on the console', async () => {
    if (missing !== undefined) {
      // Printed by the list reporter next to the test, so CI's output says why it did not run.
      console.log(`Electron smoke test skipped: ${missing}`);
      test.skip(true, `Electron binary not available on this machine (${missing}).`);
      return;
    }
    const app = await electron.launch({
      executablePath: (found as { path: string }).path,
      args: ['.'],
      env: { ...process.env, SERVICE_DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-electron-')) },
    });
    const window = await app.firstWindow();
    await expect(window.getByTestId('app-ready')).toBeAttached();
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    // The preload bridge: the connections calls and nothing else (no ipcRenderer, no Node).
    const bridge = await window.evaluate(() => {
      const desktop = (window as unknown as { serviceDesktop?: { connections?: Record<string, unknown> } })
        .serviceDesktop;
      return {
        keys: Object.keys(desktop ?? {}).sort(),
        calls: Object.keys(desktop?.connections ?? {}).sort(),
        ipc: typeof (window as unknown as { ipcRenderer?: unknown }).ipcRenderer,
      };
    });
    expect(bridge).toEqual({
      keys: ['connections'],
      calls: ['activate', 'activateLocal', 'active', 'list', 'remove', 'save'],
      ipc: 'undefined',
    });
    expect(
      await window.evaluate(() =>
        (
          globalThis as unknown as { serviceDesktop: { connections: { active(): Promise<unknown> } } }
        ).serviceDesktop.connections.active(),
      ),
    ).toMatchObject({ local: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    await expect(window.getByTestId('connection-badge')).toContainText('This computer');
    await window.screenshot({ path: 'e2e/artifacts/electron-window.png' });
    await app.close();
  });
});
