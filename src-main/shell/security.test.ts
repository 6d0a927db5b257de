import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  installShellGuards,
  isAllowedNavigation,
  isSafeExternalUrl,
  secureWindowOptions,
  type GuardedContents,
} from './security.js';
import { buildServer } from '../service/server.js';
import { CONSOLE_CSP } from '../service/http/console-static.js';
import { createHarness, type Harness } from '../service/testing/harness.js';

describe('the Electron window is hardened', () => {
  const prefs = secureWindowOptions().webPreferences!;

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
    expect(prefs.preload).toBeUndefined(); // no bridge unless the shell names its preload
    expect(secureWindowOptions('/app/dist/main/shell/preload.cjs').webPreferences).toMatchObject({
      preload: '/app/dist/main/shell/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
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

  it('denies new windows, navigation away, webviews and permission requests in the shell', async () => {
    const shell = fakeShell();
    const contents = shell.created();
    // Every permission request is denied, whatever it is.
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(await shell.askPermission(permission)).toBe(false);
    }
    // No window is ever opened; only a safe link outside the console goes to the OS browser.
    expect(contents.open('http://127.0.0.1:7788/console/#/x')).toEqual({ action: 'deny' });
    expect(contents.open('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(contents.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(contents.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://example.com/docs']);
    // Navigation stays on the service origin.
    expect(contents.navigate('http://127.0.0.1:7788/console/')).toBe(false);
    expect(contents.navigate('http://127.0.0.1:7789/console/')).toBe(true);
    expect(contents.navigate('https://evil.example/')).toBe(true);
    expect(contents.attachWebview()).toBe(true);
    // main.ts wires these guards to Electron (and has no other openExternal path).
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    expect(main).toMatch(/installShellGuards\(/);
    expect(main).not.toMatch(/setPermissionRequestHandler\([^)]*callback\(true\)/);
  });

  it('opens external links only after isSafeExternalUrl, in both places', () => {
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    const calls = [...main.matchAll(/shell\.openExternal\(/g)];
    expect(calls).toHaveLength(1); // the guards' injected openExternal, called after isSafeExternalUrl
    expect(main).toMatch(/openExternal: \(url\) => shell\.openExternal\(url\)/);
    // The only IPC: the connections handlers, each checking the sender's origin (connections-ipc.ts).
    expect([...main.matchAll(/ipcMain\.(\w+)\(/g)].map((m) => m[1])).toEqual(['handle']);
    expect(main).toMatch(/for \(const \[channel, handler\] of Object\.entries\(handlers\)\)/);
    expect(main).toMatch(/event\.senderFrame\?\.parent === null \? event\.senderFrame\.origin : undefined/);
  });
});

describe('the console content security policy', () => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    h = await createHarness({ bootstrap: false });
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    h.server = await buildServer(h.svc, { consoleDir: dir });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the service sends the console CSP header (no inline script, no framing, self only)', async () => {
    const res = await h.server.inject({ url: '/console/', headers: { host: '127.0.0.1:7788' } });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe(CONSOLE_CSP);
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]); // no 'unsafe-inline', no 'unsafe-eval'
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('does not serve the console to a page that reached us through a foreign host name', async () => {
    const res = await h.server.inject({ url: '/console/', headers: { host: 'attacker.example:7788' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.host' });
  });
});

/** Drives installShellGuards with fakes standing in for Electron's session, app and shell. */
function fakeShell() {
  let permissionHandler!: (permission: string, callback: (granted: boolean) => void) => void;
  let contentsListener!: (contents: GuardedContents) => void;
  const opened: string[] = [];
  installShellGuards(
    {
      setPermissionRequestHandler: (h) => (permissionHandler = h),
      onWebContentsCreated: (l) => (contentsListener = l),
      openExternal: async (url) => {
        opened.push(url);
      },
    },
    () => 'http://127.0.0.1:7788',
  );
  return {
    opened,
    askPermission: (permission: string) => new Promise<boolean>((r) => permissionHandler(permission, r)),
    created() {
      let open!: (d: { url: string }) => { action: 'deny' };
      let navigate!: (e: { preventDefault(): void }, url: string) => void;
      let attach!: (e: { preventDefault(): void }) => void;
      contentsListener({
        setWindowOpenHandler: (h) => (open = h),
        onWillNavigate: (h) => (navigate = h),
        onWillAttachWebview: (h) => (attach = h),
      });
      const prevented = (fire: (e: { preventDefault(): void }) => void) => {
        let stopped = false;
        fire({ preventDefault: () => (stopped = true) });
        return stopped;
      };
      return {
        open: (url: string) => open({ url }),
        navigate: (url: string) => prevented((e) => navigate(e, url)),
        attachWebview: () => prevented((e) => attach(e)),
      };
    },
  };
}
