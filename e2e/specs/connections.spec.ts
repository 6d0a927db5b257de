/**
 * Desktop connections in Chromium. There is no Electron here, so the spec stands in for the shell:
 * it starts the real connection gateway (src-main/gateway) in front of a headless "local" service,
 * adds the shell's per-launch key to the page's requests (extraHTTPHeaders, as the shell's
 * webRequest hook does), and installs `window.serviceDesktop.connections` with an init script
 * whose calls reach the real IPC handlers, store and gateway through `page.exposeFunction`.
 * Faked: Electron's IPC transport and safeStorage (a reversible stand-in box).
 */
import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConnectionsPage } from '../pages/connections-page';
import { createGateway, GATEWAY_KEY_HEADER, type Gateway } from '../../src-main/gateway/gateway';
import { ConnectionsStore } from '../../src-main/gateway/connections-store';
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

test('connects the desktop console to another service and back; cookies never collide', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: { [GATEWAY_KEY_HEADER]: key },
  });
  const page = await context.newPage();
  const store = new ConnectionsStore(join(dir, 'connections.json'), {
    isAvailable: () => true,
    encrypt: (plain) => Buffer.from(plain).reverse(),
    decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
  });
  const handlers = connectionsHandlers({
    store,
    setTarget: (target) => gateway.setTarget(target),
    consoleOrigin: () => gatewayOrigin,
    localOrigin: local.url,
  });
  await page.exposeFunction('__connectionsIpc', (channel: string, origin: string, args: unknown[]) =>
    (handlers as Record<string, (o: string, ...a: unknown[]) => Promise<unknown>>)[channel]!(origin, ...args),
  );
  await page.addInitScript(() => {
    const call = (channel: string, ...args: unknown[]) =>
      (
        window as unknown as { __connectionsIpc: (c: string, o: string, a: unknown[]) => Promise<unknown> }
      ).__connectionsIpc(channel, location.origin, args);
    (window as unknown as { serviceDesktop: unknown }).serviceDesktop = {
      connections: {
        list: () => call('connections:list'),
        save: (draft: unknown) => call('connections:save', draft),
        remove: (id: string) => call('connections:remove', id),
        activate: (id: string) => call('connections:activate', id),
        activateLocal: () => call('connections:activate-local'),
        active: () => call('connections:active'),
      },
    };
  });

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
