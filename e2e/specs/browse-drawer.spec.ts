import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Issue 44 item 10: the record drawer as a tree, and columns in the order the user puts them. */
const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());
test.setTimeout(300_000);

async function signIn(page: Page): Promise<{ browser: ObjectBrowserPage; console_: ConsolePage }> {
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  return { browser: new ObjectBrowserPage(page), console_ };
}

const LONG = `${'x'.repeat(60)}-${'y'.repeat(60)}-${'z'.repeat(60)}`;

test('the drawer shows the record as a tree: types, wrapped values, copy value and path, references that open', async ({
  page,
  context,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 2);
  const file = await api.send<{ _id: string; owner: { _id: string } }>('POST', 'c_patientfiles', {
    c_name: LONG,
    c_mrn: 'MRN-7',
    c_birth_date: '1990-04-01',
  });
  expect(file.status, JSON.stringify(file.body)).toBe(200);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { browser, console_ } = await signIn(page);

  await page.goto(`${service.consoleUrl}#/browse?c=c_patientfiles&record=${file.body._id}`);
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  // Type labels from the definition.
  await expect(browser.treeNode('_id').locator('.rtree__type')).toHaveText('ObjectId');
  await expect(browser.treeNode('c_birth_date').locator('.rtree__type')).toHaveText('Date');
  await expect(browser.treeNode('c_name').locator('.rtree__type')).toHaveText('String');
  await expect(browser.treeNode('owner').locator('.rtree__type')).toHaveText('Reference');
  // A long value wraps inside the drawer instead of running out of it.
  const drawer = await page.getByTestId('record-drawer').boundingBox();
  const value = browser.treeNode('c_name').getByTestId('tree-value');
  await expect(value).toHaveText(LONG);
  const box = await value.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual((drawer?.x ?? 0) + (drawer?.width ?? 0));
  expect(box?.height ?? 0).toBeGreaterThan(30);

  // Copy the value and the path.
  await browser.treeNode('c_mrn').getByTestId('tree-copy-value').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('MRN-7');
  await browser.treeNode('c_mrn').getByTestId('tree-copy-path').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('c_mrn');
  await console_.screenshots('browse-drawer-tree');

  // A reference opens its record in the drawer, with the way back.
  await browser.treeNode('owner').getByTestId('tree-reference').click();
  await expect(page.getByTestId('record-id')).toHaveText(file.body.owner._id);
  await expect(browser.treeNode('email').getByTestId('tree-value')).toHaveText(EMAIL);
  await expect(browser.treeNode('name').getByTestId('tree-toggle')).toHaveAttribute('aria-expanded', 'true');
  await browser.treeNode('name.first').getByTestId('tree-copy-path').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('name.first');
  await console_.screenshots('browse-drawer-reference');
  await page.getByTestId('record-back').click();
  await expect(page.getByTestId('record-id')).toHaveText(file.body._id);

  // Documents fold and unfold; the JSON view is one click away.
  await page.getByTestId('record-view-json').click();
  await expect(page.getByTestId('record-raw')).toContainText('"c_mrn": "MRN-7"');
  await page.getByTestId('record-view-tree').click();
  await expect(page.getByTestId('record-json')).toContainText('MRN-7');
});

test('columns move by drag or Alt+arrow, and stay in that order per collection', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 14);
  await api.send('POST', 'c_patientfiles', { c_name: 'Jane Roe', c_mrn: 'MRN-1' });
  await page.setViewportSize({ width: 1440, height: 900 });
  const { browser, console_ } = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts&limit=10&cols=_id,email,name.first,name.last,locale`);
  await browser.waitForRows();
  expect(await browser.headerPaths()).toEqual(['_id', 'email', 'name.first', 'name.last', 'locale']);

  // Drag "locale" onto "email": it goes before it.
  await browser.header('locale').dragTo(browser.header('email'));
  await expect.poll(() => browser.headerPaths()).toEqual(['_id', 'locale', 'email', 'name.first', 'name.last']);
  // The cells follow their headers.
  const firstRow = page.getByTestId('result-row').first().getByRole('gridcell');
  await expect(firstRow.nth(1)).toHaveText(/^(de_DE|en_US|—)$/);

  // With the keyboard: Alt+→ on a header moves it one place right.
  await browser.header('_id').getByTestId('result-sort').focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => browser.headerPaths()).toEqual(['locale', '_id', 'email', 'name.first', 'name.last']);
  await expect(browser.header('_id').getByTestId('result-sort')).toBeFocused();

  // Kept across pages and a reload, for this collection only.
  await browser.next();
  expect(await browser.headerPaths()).toEqual(['locale', '_id', 'email', 'name.first', 'name.last']);
  await page.reload();
  await browser.waitForRows();
  expect(await browser.headerPaths()).toEqual(['locale', '_id', 'email', 'name.first', 'name.last']);
  await console_.screenshots('browse-columns-moved');
  await page.goto(`${service.consoleUrl}#/browse?c=c_patientfiles`);
  await browser.waitForRows();
  expect((await browser.headerPaths())[0]).toBe('_id');
});
