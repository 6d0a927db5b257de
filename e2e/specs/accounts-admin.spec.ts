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
  expect(refused).toEqual({ status: 403, errCode: 'service.accessDenied.invalidCredentials' });

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
