/**
 * Issue 42, the console's references: Browse's paths picker offers paths into references
 * (`updater.email`), the grid shows them as columns from the service's expansion, and the drawer
 * shows each reference expanded, as a link that opens the referenced record in the drawer.
 */
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi } from '../pages/objects-api';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('paths into a reference are columns; an expanded reference opens its record in the drawer', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  // Created by the administrator: `updater` references their account.
  const created = await api.send<{ _id: string; updater: { _id: string } }>('POST', 'c_conversations', {
    c_title: 'Kick-off',
    c_status: 'open',
  });
  expect(created.status).toBe(200);
  const adminId = created.body.updater._id;

  const shell = new ConsolePage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shell.open(service.consoleUrl);
  await shell.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  const browser = new ObjectBrowserPage(page);
  await browser.open();
  await browser.pickCollection('c_conversations');

  // The picker offers members of the referenced account.
  await browser.openMenu('qb-paths');
  await page.getByTestId('qb-paths-find').fill('updater.');
  await expect(page.locator('[data-testid="qb-path-option"][value="updater.email"]')).toBeVisible();
  await page.getByTestId('qb-paths-find').fill('owner.name');
  await page.locator('[data-testid="qb-path-option"][value="owner.name.first"]').check();
  await page.getByTestId('qb-paths-find').fill('updater.');
  await page.locator('[data-testid="qb-path-option"][value="updater.email"]').check();
  await page.getByTestId('qb-paths-find').fill('c_title');
  await page.locator('[data-testid="qb-path-option"][value="c_title"]').check();
  await browser.run();
  await expect(browser.requestUrl()).toContainText('paths%5B%5D=updater.email');
  await expect(page.getByTestId('result-header').filter({ hasText: 'updater.email' })).toBeVisible();
  await expect(page.getByTestId('result-row').first()).toContainText(EMAIL);
  // owner, undeclared in the schema, still gets its column (the administrator's first name).
  await expect(page.getByTestId('result-header').filter({ hasText: 'owner.name.first' })).toBeVisible();
  await expect(page.getByTestId('result-row').first()).toContainText('Org');
  await shell.screenshots('browse-reference-paths');

  // The drawer: the reference expanded, folded under a link to the account.
  await page.getByTestId('qb-paths').locator('summary').click();
  await browser.openRow(0);
  const updater = page.locator('[data-testid="tree-node"][data-path="updater"]');
  await expect(updater.getByTestId('tree-reference').first()).toHaveText(`account ${adminId}`);
  await expect(page.locator('[data-testid="tree-node"][data-path="updater.email"]')).toHaveCount(0);
  await updater.getByTestId('tree-toggle').first().click();
  await expect(page.locator('[data-testid="tree-node"][data-path="updater.email"]')).toContainText(EMAIL);
  // Its members are typed by the account's definition (a date is a Date, not a string).
  await expect(page.locator('[data-testid="tree-node"][data-path="updater.created"]')).toContainText('Date');
  // `owner`, which every record but an account carries undeclared, is expanded too.
  const owner = page.locator('[data-testid="tree-node"][data-path="owner"]');
  await expect(owner.getByTestId('tree-reference').first()).toHaveText(`account ${adminId}`);
  await expect(owner.getByTestId('tree-toggle')).toHaveCount(1);
  await shell.screenshots('browse-reference-drawer');
  await updater.getByTestId('tree-reference').first().click();
  await expect(page.getByTestId('record-id')).toHaveText(adminId);
  await expect(page.getByTestId('record-back')).toBeVisible();
  await expect(page.locator('[data-testid="tree-node"][data-path="email"]')).toContainText(EMAIL);
});
