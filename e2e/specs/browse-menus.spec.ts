import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Browse at 1024×700: toolbar menus close like menus, and the opened builder fits the window. */
const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());
test.setTimeout(300_000);

async function signIn(page: Page): Promise<ObjectBrowserPage> {
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  return new ObjectBrowserPage(page);
}

function browseUrl(query: Record<string, string>): string {
  return `${service.consoleUrl}#/browse?${new URLSearchParams(query).toString()}`;
}

test('menus close like menus; at 1024×700 the opened builder fits: no page scroll, remove always visible', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 30);
  await page.setViewportSize({ width: 1024, height: 700 });
  const browser = await signIn(page);
  await page.goto(browseUrl({ c: 'accounts', limit: '100' }));
  await browser.waitForRows();

  // The results toolbar is one line at 1024: "+ New" and refresh beside the pager.
  const next = await page.getByTestId('result-next').boundingBox();
  const create = await page.getByTestId('record-new').boundingBox();
  expect(Math.abs((next?.y ?? 0) - (create?.y ?? 999))).toBeLessThan(4);

  // Escape closes a menu and gives the keyboard back to its button.
  for (const id of ['column-picker', 'export-menu', 'qb-paths', 'qb-library', 'qb-request']) {
    await browser.openMenu(id);
    await page.keyboard.press('Escape');
    await browser.expectMenuClosed(id);
    await expect(browser.menu(id).locator('summary')).toBeFocused();
  }

  // A press outside closes it (the click itself goes on: a sidebar link still navigates, which
  // connections.spec.ts relies on).
  await browser.openMenu('column-picker');
  await browser.screenshot('browse-menu-open-1024-light');
  await page.getByRole('heading', { name: 'Browse', exact: true }).click();
  await browser.expectMenuClosed('column-picker');
  // … while a press on another menu's button opens that one.
  await browser.openMenu('qb-request');
  await browser.menu('qb-library').locator('summary').click();
  await browser.expectMenuClosed('qb-request');
  await expect(browser.menu('qb-library')).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');

  // Another collection closes the columns menu.
  await browser.openMenu('column-picker');
  await page.getByTestId('collection-picker').selectOption('c_patientfiles');
  await browser.waitForRows();
  await browser.expectMenuClosed('column-picker');

  // The builder open with a nested group: the page does not scroll, the grid keeps its room.
  await page.goto(browseUrl({ c: 'accounts', limit: '100' }));
  await browser.waitForRows();
  await browser.addCondition('name.last', '$eq', 'Smith');
  await page.getByTestId('qb-add-group').first().click();
  await page.getByTestId('qb-add-condition').nth(1).click();
  const nested = page.getByTestId('qb-condition').nth(1);
  await nested.getByTestId('qb-property').selectOption('created');
  await nested.getByTestId('qb-operator').selectOption('$gte');
  await page.getByTestId('qb-value').first().click();
  const scroll = await browser.pageScrolls();
  expect(scroll.scrollHeight).toBeLessThanOrEqual(scroll.innerHeight);
  expect(scroll.scrollY).toBe(0);
  expect((await page.getByTestId('result-grid').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(150);
  // Every condition fits its column: its remove button is in view, not cut by the builder's scroll area.
  expect(await browser.clippedBy('qb-remove', 0)).toBe('');
  await page.getByTestId('qb-remove').nth(1).scrollIntoViewIfNeeded();
  expect(await browser.clippedBy('qb-remove', 1)).toBe('');
  expect((await browser.pageScrolls()).scrollY).toBe(0);
  const tree = await page
    .getByTestId('qb-builder')
    .evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(tree.scrollWidth).toBeLessThanOrEqual(tree.clientWidth);
  await browser.screenshot('browse-builder-fits-1024-light');
  await page.getByTestId('view-json').click();
  await expect(page.getByTestId('result-json')).toBeVisible();
  expect((await browser.pageScrolls()).scrollHeight).toBeLessThanOrEqual(700);
  await page.getByTestId('theme-toggle').click();
  await browser.screenshot('browse-builder-fits-1024-dark-json');
});
