import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { checkerApi } from '../pages/accounts-admin-page';
import { RolesPage } from '../pages/roles-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const SUPPORT = '000000000000000000000006';
const PROVIDER = '000000000000000000000005';

let service: HeadlessService;
// The page goes first: an open browser socket that has sent no request yet keeps the service's
// shutdown waiting (Node closes only idle keep-alive sockets at once).
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});
test.setTimeout(120_000);

test('define a role with validated scopes and includes, edit it, delete it', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const roles = new RolesPage(page);
  await roles.open();
  await expect(roles.item('Administrator')).toContainText('built-in');

  await roles.startNew();
  await roles.fill({
    name: 'Name reader',
    code: 'name-reader',
    scopes: ['object.read.account.name', 'script.execute'],
  });
  // Live validation with the service's parser: the spec's invalid example is caught, with its spot.
  await expect(roles.scopeChecks()).toHaveCount(2);
  await expect(roles.scopeChecks().first()).toHaveAttribute('data-valid', 'false');
  await expect(roles.scopeChecks().first()).toContainText('an identifier or * is required before a property path');
  await expect(roles.scopeChecks().first().locator('mark')).toHaveText('name');
  await expect(roles.form().getByTestId('role-save')).toBeDisabled();
  await roles.screenshot('roles-invalid');

  await roles.fill({ scopes: ['object.read.account.*.name', 'script.execute'] });
  await expect(roles.form().getByTestId('role-scopes-invalid')).toHaveCount(0);
  await roles.toggleInclude('support');
  const id = await roles.save();

  const stored = await api.get<{ name: string; code: string; scopes: string[]; include: string[] }>(`roles/${id}`);
  expect(stored.body).toMatchObject({
    name: 'Name reader',
    code: 'name-reader',
    scopes: ['object.read.account.*.name', 'script.execute'],
    include: [SUPPORT],
  });
  await expect(roles.item('Name reader')).toContainText('2 scopes');
  await roles.screenshot('roles');

  // Edit: the form reopens from the URL with the stored values.
  await page.reload();
  await expect(roles.form().getByTestId('role-name')).toHaveValue('Name reader');
  await roles.fill({ scopes: ['view.execute.c_my_view'] });
  await roles.form().getByTestId('role-save').click();
  await expect(roles.form().getByTestId('role-saved')).toBeVisible();
  await expect
    .poll(async () => (await api.get<{ scopes: string[] }>(`roles/${id}`)).body.scopes)
    .toEqual(['view.execute.c_my_view']);

  // Dark theme.
  await page.getByTestId('theme-toggle').click();
  await roles.screenshot('roles-dark');
  await page.getByTestId('theme-toggle').click();

  await roles.form().getByTestId('role-delete').click();
  await roles.form().getByTestId('role-delete-confirm').click();
  await expect(page.getByTestId('role-empty')).toBeVisible();
  expect((await api.get(`roles/${id}`)).status).toBe(404);
  await expect(roles.item('Name reader')).toHaveCount(0);
});

test('a role shows its members and effective scopes; chains naming missing types are flagged', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const support = await api.get<{ scopes: string[] }>(`roles/${SUPPORT}`);
  const role = await api.send<{ _id: string }>('POST', 'roles', {
    name: 'Auditor',
    code: 'auditor',
    scopes: ['object.read.account.*.email'],
    include: [SUPPORT],
  });
  expect(role.status).toBe(200);
  const member = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'audrey@demo.test',
    password: 'audrey password 1',
    roles: [role.body._id],
  });
  expect(member.status).toBe(200);

  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const roles = new RolesPage(page);
  await roles.open();
  await roles.item('Auditor').click();
  await expect(roles.form().getByTestId('role-member')).toHaveText(['audrey@demo.test']);
  const effective = roles.form().getByTestId('role-effective-item');
  await expect(effective.first()).toHaveAttribute('data-from', 'self');
  // Own chain first, then every chain the included Support role carries, resolved as the service does.
  await expect(effective).toHaveCount(1 + new Set(support.body.scopes ?? []).size);
  await expect(roles.form().getByTestId('role-scopes')).not.toHaveAttribute('placeholder');
  await console_.screenshots('roles-members');

  // Issue #18 layout defect: at 1024×700 a role's scopes and its members are both in view, with no
  // page scrolling (they used to sit below the list, off screen).
  await page.setViewportSize({ width: 1024, height: 700 });
  for (const part of [
    roles.form().getByTestId('role-scopes'),
    roles.form().getByTestId('role-effective-item').first(),
    roles.form().getByTestId('role-member'),
    roles.form().getByTestId('role-save'),
  ]) {
    await expect(part).toBeInViewport({ ratio: 1 });
  }
  expect(
    await page.evaluate(() =>
      [document.scrollingElement, document.querySelector('.shell__main')].every(
        (el) => el !== null && el.scrollHeight <= el.clientHeight,
      ),
    ),
  ).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });

  // A green check means the chain can grant something: a collection name where a type belongs is not.
  await roles.fill({ scopes: ['object.read.accounts'] });
  await expect(roles.scopeChecks().first()).toHaveAttribute('data-valid', 'false');
  await expect(roles.scopeChecks().first()).toContainText('did you mean "account"');
  await expect(roles.form().getByTestId('role-save')).toBeDisabled();
  await console_.screenshots('roles-schema-check');
});

test('the Administrator role says it makes an org administrator; at 1024×700 nothing overlaps', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  // Enough members with long emails to fill the Members column of the narrow window.
  for (let i = 0; i < 24; i++) {
    const created = await api.send('POST', 'accounts', {
      email: `a.rather.long.member.name.${i}@members.demo.example`,
      password: 'member password 1',
      roles: [PROVIDER],
    });
    expect(created.status).toBe(200);
  }

  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const roles = new RolesPage(page);
  await roles.open();
  await roles.item('Administrator').click();
  // Holding it makes the account an org administrator (src-main/service/access/caller.ts), whatever
  // its chains: the screen must not say it grants nothing.
  await expect(roles.form().getByTestId('role-effective-admin')).toContainText('Org administrator');
  await expect(roles.form().getByTestId('role-effective')).not.toContainText('grants nothing');

  // Provider: no chains, many members. At 1024×700 its one-line note stays above the Members
  // heading (it used to shrink under it), and member emails stay inside the column.
  await page.setViewportSize({ width: 1024, height: 700 });
  await roles.item('Provider').click();
  await expect(roles.form().getByTestId('role-member')).toHaveCount(24);
  const effective = roles.form().getByTestId('role-effective');
  await expect(effective).toContainText('None: holding this role grants nothing.');
  const note = await effective.locator('p.note').boundingBox();
  const members = await roles.form().getByTestId('role-members').locator('.panel__heading').boundingBox();
  expect(note && members && note.y + note.height <= members.y).toBe(true);
  const column = await roles.form().locator('.role-editor__facts').boundingBox();
  const email = await roles.form().getByTestId('role-member').first().boundingBox();
  expect(column && email && email.x + email.width <= column.x + column.width + 0.5).toBe(true);
  expect(
    await roles
      .form()
      .getByTestId('role-member')
      .first()
      .evaluate((el) => el.scrollWidth <= el.clientWidth),
  ).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await console_.screenshots('roles-provider-many-members');
  await roles.item('Administrator').click();
  await console_.screenshots('roles-administrator');
});
