import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Issue 44 item 3: dates and times typed with the keyboard, whole values shown, a date-only choice. */
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

test('a date and time typed with the keyboard builds the condition digit by digit', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 3);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { browser, console_ } = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts`);
  await browser.waitForRows();
  await browser.addCondition('created', '$gte');
  const value = page.getByTestId('qb-value');

  // Typed segment by segment (month, day, year, hours, minutes, seconds, AM/PM in this locale):
  // the condition stays editable after every key, never "Edit this condition in the JSON view".
  await value.click({ position: { x: 12, y: 14 } });
  for (const key of '05012024'.split('')) {
    await page.keyboard.press(key);
    await expect(page.getByTestId('qb-condition-json-only')).toHaveCount(0);
    await expect(value).toBeVisible();
  }
  for (const key of '123045P'.split('')) await page.keyboard.press(key);
  await expect(page.getByTestId('qb-condition-json-only')).toHaveCount(0);
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"created":{"$gte":"2024-05-01T12:30:45.000Z"}}');
  await expect(value).toHaveValue('2024-05-01T12:30:45');
  // The whole value shows: the field is not narrower than its text.
  const clipped = await value.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped).toBe(false);
  await console_.screenshots('browse-date-typed');

  // A half-typed date keeps the last whole one in the query and says so.
  await value.click({ position: { x: 12, y: 14 } });
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('qb-date-incomplete')).toBeVisible();
  await expect(page.getByTestId('qb-condition-json-only')).toHaveCount(0);
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"created":{"$gte":"2024-05-01T12:30:45.000Z"}}');
  await page.keyboard.press('0');
  await page.keyboard.press('6');
  await expect(page.getByTestId('qb-date-incomplete')).toHaveCount(0);
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"created":{"$gte":"2024-06-01T12:30:45.000Z"}}');

  // Date only: the condition takes the day, written as a date.
  await page.getByTestId('qb-date-mode').selectOption('date');
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"created":{"$gte":"2024-06-01"}}');
  await value.click({ position: { x: 12, y: 14 } });
  for (const key of '12312023'.split('')) await page.keyboard.press(key);
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"created":{"$gte":"2023-12-31"}}');
  await browser.run();
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());
  // Reopened from the URL, a date-only value opens as a date.
  await page.reload();
  await browser.waitForRows();
  await browser.expandBuilder();
  await expect(page.getByTestId('qb-date-mode')).toHaveValue('date');
  await expect(value).toHaveValue('2023-12-31');
  await console_.screenshots('browse-date-only');
});
