import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { AccountsAdminPage, checkerApi } from '../pages/accounts-admin-page';
import { ConsolePage } from '../pages/console-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const SUPPORT = '000000000000000000000006';
const DEVELOPER = '000000000000000000000007';

let service: HeadlessService;
// The page goes first: an open browser socket that has sent no request yet keeps the service's
// shutdown waiting (Node closes only idle keep-alive sockets at once).
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});
// Several service round trips with password hashing per test; generous on a busy machine.
test.setTimeout(120_000);

async function signIn(page: Page): Promise<AccountsAdminPage> {
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  const admin = new AccountsAdminPage(page);
  await admin.open();
  return admin;
}

/** A login as the given account, straight against the API (a separate client, no console cookie). */
async function loginStatus(email: string, password: string): Promise<{ status: number; errCode?: string }> {
  const info = (await (await fetch(`${service.url}/_service/info`)).json()) as {
    data: { orgs: { consoleAppKey: string }[] };
  };
  const response = await fetch(`${service.url}/demo/v2/accounts/login`, {
    method: 'POST',
    headers: { 'Service-Client-Key': info.data.orgs[0]?.consoleAppKey ?? '', 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { object?: string; errCode?: string };
  return { status: response.status, ...(body.object === 'fault' ? { errCode: body.errCode } : {}) };
}

test('provision an account, verify it, assign roles, reset two-factor', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const admin = await signIn(page);

  const id = await admin.create({ email: 'nurse@demo.test', password: 'staple horse 42', first: 'Nia', last: 'Stone' });
  expect(page.url()).toContain(`id=${id}`);
  let stored = await api.get<{ email: string; state: string; roles: string[] }>(`accounts/${id}`);
  expect(stored.body).toMatchObject({ email: 'nurse@demo.test', state: 'unverified', roles: [] });

  await admin.action('account-verify');
  await expect(admin.detail().getByTestId('account-state')).toHaveText('verified');
  stored = await api.get(`accounts/${id}`);
  expect(stored.body.state).toBe('verified');

  // Roles assigned in the console are what the service returns for the account.
  await admin.toggleRole('support');
  await admin.toggleRole('developer');
  await admin.saveRoles();
  stored = await api.get(`accounts/${id}`);
  expect([...stored.body.roles].sort()).toEqual([SUPPORT, DEVELOPER]);
  await admin.toggleRole('developer');
  await admin.saveRoles();
  stored = await api.get(`accounts/${id}`);
  expect(stored.body.roles).toEqual([SUPPORT]);
  await expect(admin.row('nurse@demo.test')).toContainText('Support');

  await admin.action('account-reset-2fa');
  await expect(admin.detail().getByTestId('account-action-done')).toContainText('Two-factor reset');

  await admin.search('nurse');
  await expect(page.getByTestId('admin-account-row')).toHaveCount(1);
  expect(page.url()).toContain('q=nurse');
  await admin.screenshot('accounts-admin');

  await admin.search('nobody-here');
  await expect(page.getByTestId('admin-accounts-empty')).toBeVisible();

  // The original accounts grid still works next to the new screen.
  await page.getByTestId('nav-accounts').click();
  await expect(page.getByTestId('grid-row')).toHaveCount(3); // admin, checker, nurse
});

test('locking an account makes its login fail; unlocking lets it in again', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const admin = await signIn(page);
  await admin.create({ email: 'locked@demo.test', password: 'staple horse 42' });
  expect((await loginStatus('locked@demo.test', 'staple horse 42')).status).toBe(200);

  await admin.action('account-lock');
  await expect(admin.detail().getByTestId('account-locked')).toBeVisible();
  await admin.screenshot('accounts-admin-locked');
  const refused = await loginStatus('locked@demo.test', 'staple horse 42');
  // docs/compatibility.md#requests-cookies-and-fault-codes: a locked account answers accountLocked at top level, right password or not
  expect(refused).toEqual({ status: 403, errCode: 'service.accessDenied.accountLocked' });

  await admin.action('account-unlock');
  await expect(admin.detail().getByTestId('account-locked')).toHaveCount(0);
  expect((await loginStatus('locked@demo.test', 'staple horse 42')).status).toBe(200);
});

test('deleting an account, and faults shown with their errCode', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const admin = await signIn(page);

  // A duplicate email: the service's fault, shown as is.
  await admin.create({ email: 'dup@demo.test', password: 'staple horse 42' });
  await page.getByTestId('admin-account-new').click();
  await page.getByTestId('new-account-email').fill('dup@demo.test');
  await page.getByTestId('new-account-password').fill('staple horse 42');
  await page.getByTestId('new-account-submit').click();
  await expect(page.getByTestId('fault-errcode')).toContainText('service.');

  await admin.select('dup@demo.test');
  const id = (await admin.detail().getAttribute('data-account-id')) ?? '';
  await admin.detail().getByTestId('account-delete').click();
  await admin.detail().getByTestId('account-delete-confirm').click();
  await expect(page.getByTestId('account-detail-empty')).toBeVisible();
  expect((await api.get(`accounts/${id}`)).status).toBe(404);

  // A deleted account in the URL: the fault, not a blank panel.
  await page.goto(`${service.consoleUrl}#/accounts-admin?id=${id}`);
  await expect(page.getByTestId('fault-errcode')).toHaveText('service.notFound.instance');
});

test('set a password with the strength rule, search by name, see the account’s sessions and tokens', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const admin = await signIn(page);
  const id = await admin.create({
    email: 'grace@demo.test',
    password: 'first password 1',
    first: 'Grace',
    last: 'Hopper',
  });
  const console_ = new ConsolePage(page);

  // Search by name, not only by email.
  await admin.search('hopp');
  await expect(admin.row('grace@demo.test')).toBeVisible();
  await expect(page.getByTestId('admin-account-row')).toHaveCount(1);

  // A weak password is refused as typed (the service's rule); a strong one is set and works.
  const detail = admin.detail();
  await detail.getByTestId('account-password-open').click();
  await detail.getByTestId('account-password').fill('password123');
  await expect(detail.getByTestId('account-password-problem')).toContainText('common');
  await expect(detail.getByTestId('account-password-save')).toBeDisabled();
  await detail.getByTestId('account-password').fill('a fresh passphrase 7');
  await detail.getByTestId('account-password-confirm').fill('a fresh passphrase 7');
  await console_.screenshots('accounts-admin-password');
  await detail.getByTestId('account-password-save').click();
  await expect(detail.getByTestId('account-password-done')).toBeVisible();
  expect((await loginStatus('grace@demo.test', 'first password 1')).status).toBeGreaterThanOrEqual(400);
  expect((await loginStatus('grace@demo.test', 'a fresh passphrase 7')).status).toBe(200);

  // Her session (started above) and a stored token minted for her show in the account's panel.
  const minted = await api.send('POST', `accounts/${id}/tokens`, { app: api.key, scope: ['*'], permanent: true });
  expect(minted.status).toBe(200);
  await page.reload();
  await expect(detail.getByTestId('account-sessions-table').getByTestId('session-row')).toHaveCount(1);
  await expect(detail.getByTestId('account-sessions-table').getByTestId('session-ip')).toHaveText(/127\.0\.0\.1/);
  await expect(detail.getByTestId('account-token-row')).toHaveCount(1);
  await detail.getByTestId('account-sessions').scrollIntoViewIfNeeded();
  await console_.screenshots('accounts-admin-activity');
});
