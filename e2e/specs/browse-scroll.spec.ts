import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Issue 44 item 2: the grid shows row 1 whenever the rows are another page's. */
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

test('a new query, Next/Prev and a header sort start at row 1; a refresh keeps the place', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 60);
  await page.setViewportSize({ width: 1024, height: 700 });
  const { browser, console_ } = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts&limit=25`);
  await browser.waitForRows();
  await expect(page.getByTestId('result-range')).toHaveText(/^1–25/);

  // Next: the range says 26–50 and row 1 of that page is the first in view.
  await browser.scrollGridToBottom();
  await browser.next();
  await expect(page.getByTestId('result-range')).toHaveText(/^25 rows of 61|^26–50/);
  expect(await browser.gridScrollTop()).toBe(0);
  expect(await browser.firstRowInView()).toBe(2);

  // Prev, the same.
  await browser.scrollGridToBottom();
  await browser.previous();
  expect(await browser.gridScrollTop()).toBe(0);

  // A header sort.
  await browser.scrollGridToBottom();
  await page.locator('[data-testid="result-header"][data-path="email"]').getByTestId('result-sort').click();
  await browser.waitForRows();
  await expect(page.locator('[data-testid="result-header"][data-path="email"]')).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  expect(await browser.gridScrollTop()).toBe(0);

  // A new query from the bar.
  await browser.scrollGridToBottom();
  await page.getByTestId('qb-bar-where').fill('{"locale":"de_DE"}');
  await browser.run();
  await expect(page.getByTestId('result-range')).toHaveText(/^1–25 of \d+/);
  expect(await browser.gridScrollTop()).toBe(0);
  expect(await browser.firstRowInView()).toBe(2);

  // A refresh of the same page keeps the place the user scrolled to.
  await browser.scrollGridToBottom();
  const before = await browser.gridScrollTop();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await browser.waitForRows();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  expect(await browser.gridScrollTop()).toBe(before);

  // Next once more, for the record at both sizes and themes: row 1 under the header.
  await browser.next();
  await console_.screenshots('browse-next-page-top');
});
