import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
import { OutboxPage, SESSION_VIEWPORTS } from '../pages/outbox-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('the outbox shows a password-reset message, newest first, with paging', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/outbox`);
  await console_.login(EMAIL, PASSWORD);
  const outbox = new OutboxPage(page);
  await expect(page.getByTestId('outbox-empty')).toBeVisible();
  // An empty outbox: the pager follows the message instead of sitting at the bottom of the window.
  await page.setViewportSize({ width: 1440, height: 900 });
  const empty = await page.getByTestId('outbox-empty').boundingBox();
  const pager = await page.getByTestId('outbox-next').boundingBox();
  expect(empty && pager && pager.y - (empty.y + empty.height) < 60).toBe(true);
  await console_.screenshots('outbox-empty');

  for (const email of ['first@demo.test', 'second@demo.test']) {
    const created = await api.send('POST', 'accounts', {
      email,
      password: 'staple horse 42',
      name: { first: 'A', last: 'B' },
    });
    expect(created.status).toBe(200);
    // Anyone may ask for a reset: no session, just the app key.
    const asked = await fetch(`${service.url}/demo/v2/accounts/request-password-reset`, {
      method: 'POST',
      headers: { 'Service-Client-Key': api.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(asked.status).toBe(200);
  }
  await page.getByTestId('outbox-refresh').click();
  await expect(outbox.messages()).toHaveCount(2);
  const newest = outbox.messages().first();
  await expect(newest).toHaveAttribute('data-kind', 'passwordReset');
  await expect(newest.getByTestId('outbox-recipient')).toHaveText('second@demo.test');
  await expect(newest.getByTestId('outbox-body')).toContainText('reset-password');
  await expect(outbox.messages().nth(1).getByTestId('outbox-recipient')).toHaveText('first@demo.test');
  await console_.screenshot('outbox');

  // Paging: one more message than a page holds. Anonymous resets are limited per email (5 an hour
  // by default, issue #13 item 9); an administrator raises the limit as documented, with the CLI.
  execFileSync(process.execPath, [
    'dist/main/cli.js',
    'admin',
    'org',
    'set',
    'anonymousRequestsPerEmail',
    '100',
    '--data-dir',
    service.dataDir,
    '--org',
    'demo',
  ]);
  for (let i = 0; i < 24; i++) {
    const asked = await fetch(`${service.url}/demo/v2/accounts/request-password-reset`, {
      method: 'POST',
      headers: { 'Service-Client-Key': api.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'first@demo.test' }),
    });
    expect(asked.status).toBe(200);
  }
  await page.getByTestId('outbox-refresh').click();
  await expect(outbox.messages()).toHaveCount(25);
  await page.getByTestId('outbox-next').click();
  expect(page.url()).toContain('skip=25');
  await expect(outbox.messages()).toHaveCount(1);
  await expect(outbox.messages().first().getByTestId('outbox-recipient')).toHaveText('first@demo.test');
  await expect(page.getByTestId('outbox-next')).toBeDisabled();
});

test('ending a session logs that client out', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const admin = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const bea = await admin.send<{ _id: string }>('POST', 'accounts', {
    email: 'bea@demo.test',
    password: 'staple horse 42',
    name: { first: 'Bea', last: 'Client' },
  });
  const client = await objectsApi(service.url, 'bea@demo.test', 'staple horse 42');
  expect((await client.get('accounts/me')).status).toBe(200);

  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/outbox`);
  await console_.login(EMAIL, PASSWORD);
  const outbox = new OutboxPage(page);
  const row = page.locator(`[data-testid="session-row"][data-account="${bea.body._id}"]`);
  await expect(row).toContainText('bea@demo.test');
  await console_.screenshot('sessions');
  // The sessions table fits beside (1440) or under (1024) the outbox: every End button in view, user
  // agents two lines at most, no sideways scrolling.
  for (const viewport of SESSION_VIEWPORTS) {
    await page.setViewportSize(viewport);
    await outbox.expectSessionsFit('sessions-table');
  }
  await console_.screenshots('sessions-fit');
  await outbox.endSessionOf(bea.body._id);

  const after = await client.get<{ errCode: string }>('accounts/me');
  expect(after.status).toBe(403);
  expect(after.body.errCode).toMatch(/^service\.accessDenied\.(notLoggedIn|sessionExpired)$/);
  // The console's own session is untouched.
  await expect(page.getByTestId('app-ready')).toBeVisible();
  await page.getByTestId('sessions-refresh').click();
  await expect(outbox.sessionRows().first()).toBeVisible();
});
