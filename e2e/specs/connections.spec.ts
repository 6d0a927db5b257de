/**
 * Desktop connections in Chromium. There is no Electron here, so the spec stands in for the shell:
 * it starts the real connection gateway (src-main/gateway) in front of a headless "local" service,
 * adds the shell's per-launch key to the page's requests (extraHTTPHeaders, as the shell's
 * webRequest hook does), and installs `window.serviceDesktop.connections` with an init script
 * whose calls reach the real IPC handlers, store and gateway through `page.exposeFunction`.
 * Faked: Electron's IPC transport and safeStorage (a reversible stand-in box).
 */
import { expect, test, type Browser } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConnectionsPage } from '../pages/connections-page';
import { createGateway, GATEWAY_KEY_HEADER, type Gateway } from '../../src-main/gateway/gateway';
import { ConnectionsStore, type SecretBox } from '../../src-main/gateway/connections-store';
import { connectionsHandlers } from '../../src-main/gateway/connections-ipc';
import { ObjectBrowserPage } from '../pages/object-browser-page';

const LOCAL_ADMIN = 'local-admin@example.test';
const REMOTE_ADMIN = 'remote-admin@example.test';
const PASSWORD = 'correct horse battery staple';

let local: HeadlessService;
let remote: HeadlessService;
let gateway: Gateway;
let gatewayOrigin: string;
let dir: string;
const key = randomBytes(32).toString('hex');

test.beforeAll(async () => {
  [local, remote] = await Promise.all([
    startHeadlessService(['--admin-email', LOCAL_ADMIN, '--admin-password', PASSWORD]),
    startHeadlessService(['--admin-email', REMOTE_ADMIN, '--admin-password', PASSWORD]),
  ]);
  gateway = createGateway({ localOrigin: local.url, key });
  gatewayOrigin = await gateway.listen();
  dir = mkdtempSync(join(tmpdir(), 'e2e-connections-'));
});
test.afterAll(async () => {
  await gateway?.close();
  await Promise.all([local?.stop(), remote?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const reversingBox: SecretBox = {
  isAvailable: () => true,
  encrypt: (plain) => Buffer.from(plain).reverse(),
  decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
};

/**
 * One start of the desktop app: a window (browser context) whose requests carry the shell's key,
 * and fresh IPC handlers over the saved connections in `file` (which restore the active one, as
 * the shell does at start), reached through the bridge the preload would install.
 */
async function desktopWindow(browser: Browser, file: string, box: SecretBox = reversingBox) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: { [GATEWAY_KEY_HEADER]: key },
  });
  const page = await context.newPage();
  const handlers = connectionsHandlers({
    store: new ConnectionsStore(file, box),
    setTarget: (target) => gateway.setTarget(target),
    consoleOrigin: () => gatewayOrigin,
    localOrigin: local.url,
  });
  const call = (channel: string, ...args: unknown[]) =>
    (handlers as Record<string, (o: string, ...a: unknown[]) => Promise<unknown>>)[channel]!(gatewayOrigin, ...args);
  await page.exposeFunction('__connectionsIpc', (channel: string, origin: string, args: unknown[]) =>
    (handlers as Record<string, (o: string, ...a: unknown[]) => Promise<unknown>>)[channel]!(origin, ...args),
  );
  await page.addInitScript(() => {
    const ipc = (channel: string, ...args: unknown[]) =>
      (
        window as unknown as { __connectionsIpc: (c: string, o: string, a: unknown[]) => Promise<unknown> }
      ).__connectionsIpc(channel, location.origin, args);
    (window as unknown as { serviceDesktop: unknown }).serviceDesktop = {
      connections: {
        list: () => ipc('connections:list'),
        save: (draft: unknown) => ipc('connections:save', draft),
        remove: (id: string) => ipc('connections:remove', id),
        activate: (id: string) => ipc('connections:activate', id),
        activateLocal: () => ipc('connections:activate-local'),
        active: () => ipc('connections:active'),
      },
    };
  });
  return { context, page, call };
}

test('connects the desktop console to another service and back; cookies never collide', async ({ browser }) => {
  const { context, page } = await desktopWindow(browser, join(dir, 'connections.json'));
  const ui = new ConnectionsPage(page);
  await ui.open(`${gatewayOrigin}/console/`);
  await ui.login(LOCAL_ADMIN, PASSWORD);
  await expect(page.getByTestId('current-user')).toHaveText(LOCAL_ADMIN);
  await expect(ui.badge()).toContainText('This computer');
  const localSid = (await context.cookies()).find((c) => c.name === 'service.sid')?.value;
  expect(localSid).toBeTruthy();

  await ui.openScreen();
  await ui.add('Remote lab', remote.url);
  await expect(page.getByTestId('connection-local').getByTestId('connection-active')).toBeVisible();
  await ui.screenshots('connections-screen');

  // Connect: the console starts again against the remote, whose login screen shows the banner.
  await ui.connect('Remote lab');
  await expect(page.getByTestId('connection-banner')).toContainText('Remote lab');
  await ui.login(REMOTE_ADMIN, PASSWORD);
  await expect(page.getByTestId('current-user')).toHaveText(REMOTE_ADMIN);
  await expect(ui.badge()).toContainText('Remote lab');
  await expect(ui.badge()).toContainText(new URL(remote.url).host);
  // The remote's session cookie stayed in the gateway: the browser still has only the local one.
  const cookies = await context.cookies();
  expect(cookies.filter((c) => c.name === 'service.sid').map((c) => c.value)).toEqual([localSid]);
  await ui.screenshots('connections-header-remote');
  // A copied request names the service that answers, not the gateway (which serves only this window).
  const browse = new ObjectBrowserPage(page);
  await browse.open();
  await browse.pickCollection('accounts');
  await page.getByTestId('qb-run').click();
  await page.getByTestId('qb-request').locator('summary').click();
  await expect(page.getByTestId('qb-request-url')).toContainText(`${remote.url}/`);

  // Back to this computer: the local session is still there (no login), the remote's data gone.
  await ui.openScreen();
  await expect(page.getByTestId('connection-Remote lab').getByTestId('connection-active')).toBeVisible();
  await ui.screenshots('connections-screen-remote-active');
  await page.getByTestId('connection-local').getByTestId('connection-connect').click();
  await expect(page.getByTestId('current-user')).toHaveText(LOCAL_ADMIN);
  await expect(ui.badge()).toContainText('This computer');

  // The saved list holds no secret-bearing field and the file no password.
  expect(readFileSync(join(dir, 'connections.json'), 'utf8')).not.toContain(PASSWORD);
  await context.close();
});

test('a restart reconnects to the connection that was active; one it cannot open falls back with a notice', async ({
  browser,
}) => {
  const file = join(dir, 'restart-connections.json');
  const first = await desktopWindow(browser, file);
  const ui = new ConnectionsPage(first.page);
  await ui.open(`${gatewayOrigin}/console/`);
  await ui.login(LOCAL_ADMIN, PASSWORD);
  await ui.openScreen();
  await ui.add('Remote lab', remote.url);
  await ui.connect('Remote lab');
  await expect(first.page.getByTestId('connection-banner')).toContainText('Remote lab');
  await first.context.close();

  // The next start talks to the remote at once: its login screen, under the banner.
  const second = await desktopWindow(browser, file);
  const again = new ConnectionsPage(second.page);
  await again.open(`${gatewayOrigin}/console/`);
  await expect(second.page.getByTestId('connection-banner')).toContainText('Remote lab');
  await again.login(REMOTE_ADMIN, PASSWORD);
  await expect(second.page.getByTestId('current-user')).toHaveText(REMOTE_ADMIN);
  await expect(again.badge()).toContainText('Remote lab');
  await second.context.close();

  // A start where the OS keychain cannot open the saved secret: this computer, and it says why.
  const token = await second.call('connections:save', {
    name: 'Token lab',
    url: remote.url,
    kind: 'token',
    secret: 'eyJhbGciOiJQUzUxMiJ9.eyJzdWIiOiJ4In0.c2ln',
  });
  await second.call('connections:activate', (token as { id: string }).id);
  const third = await desktopWindow(browser, file, { ...reversingBox, isAvailable: () => false });
  const fallback = new ConnectionsPage(third.page);
  await fallback.open(`${gatewayOrigin}/console/`);
  await expect(third.page.getByTestId('connection-notice')).toContainText('Could not reconnect to "Token lab"');
  await fallback.screenshots('connections-restore-notice-login');
  await fallback.login(LOCAL_ADMIN, PASSWORD);
  await expect(third.page.getByTestId('current-user')).toHaveText(LOCAL_ADMIN);
  await expect(fallback.badge()).toContainText('This computer');
  await expect(third.page.getByTestId('connection-badge-notice')).toBeVisible();
  await fallback.screenshots('connections-restore-notice-header');
  // Back on the sign-in screen the notice is still there until dismissed.
  await fallback.logout();
  await third.page.getByTestId('connection-notice').getByRole('button', { name: 'Dismiss' }).click();
  await expect(third.page.getByTestId('connection-notice')).toHaveCount(0);
  await third.call('connections:activate-local');
  await third.context.close();
});

test('the headless console (no bridge) shows no connection badge and no Connections screen', async ({ page }) => {
  const ui = new ConnectionsPage(page);
  await ui.open(local.consoleUrl);
  await ui.login(LOCAL_ADMIN, PASSWORD);
  await expect(page.getByTestId('current-user')).toHaveText(LOCAL_ADMIN);
  await expect(ui.badge()).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Connections', exact: true })).toHaveCount(0);
});

test('the gateway refuses a page without the shell key (another browser cannot borrow it)', async ({ page }) => {
  const response = await page.goto(`${gatewayOrigin}/_service/info`);
  expect(response?.status()).toBe(403);
});
