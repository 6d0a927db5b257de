import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isAllowedNavigation, secureWindowOptions } from './security.js';
import { isSafeExternalUrl } from '../../src-shared/ipc.js';

describe('the Electron window is hardened', () => {
  const prefs = secureWindowOptions('/app/preload.cjs').webPreferences!;

  it('isolates the page: context isolation and sandbox on, no Node anywhere', () => {
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(prefs.preload).toBe('/app/preload.cjs');
  });

  it('navigates only within the service origin', () => {
    const origin = 'http://127.0.0.1:7788';
    expect(isAllowedNavigation('http://127.0.0.1:7788/console/#/accounts', origin)).toBe(true);
    expect(isAllowedNavigation('http://127.0.0.1:7789/console/', origin)).toBe(false);
    expect(isAllowedNavigation('http://localhost:7788/console/', origin)).toBe(false);
    expect(isAllowedNavigation('https://evil.example/', origin)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', origin)).toBe(false);
    expect(isAllowedNavigation('not a url', origin)).toBe(false);
  });

  it('opens only http(s) links externally', () => {
    expect(isSafeExternalUrl('https://example.com/docs')).toBe(true);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('smb://share/x')).toBe(false);
  });

  it('denies new windows, navigation away, webviews and permission requests in the shell', () => {
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    expect(main).toMatch(/setWindowOpenHandler\([\s\S]*?action: 'deny'/);
    expect(main).toMatch(/'will-navigate'[\s\S]*?preventDefault/);
    expect(main).toMatch(/'will-attach-webview'[\s\S]*?preventDefault/);
    expect(main).toMatch(/setPermissionRequestHandler\([\s\S]*?callback\(false\)/);
    const preload = readFileSync(new URL('./preload.ts', import.meta.url), 'utf8');
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\s*[,)]/);
  });
});
