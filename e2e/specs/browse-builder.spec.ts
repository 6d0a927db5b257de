import { expect, test, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Issue 44 item 10: the query bar and the builder. */
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

test('Enter runs the bar; where, sort and paths complete from the schema; the bar wraps at 1024', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 12);
  await page.setViewportSize({ width: 1024, height: 700 });
  const { browser, console_ } = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts`);
  await browser.waitForRows();
  const where = page.getByTestId('qb-bar-where');

  // At 1024 px the sort bar keeps a usable width: the bar wraps to a second line instead.
  const sortBox = await page.getByTestId('qb-bar-sort').boundingBox();
  expect(sortBox?.width ?? 0).toBeGreaterThanOrEqual(140);
  const whereBox = await where.boundingBox();
  const runBox = await page.getByTestId('qb-run').boundingBox();
  expect((runBox?.y ?? 0) - (whereBox?.y ?? 0)).toBeGreaterThan(20);

  // Enter runs the one-line where.
  await where.fill('{"locale":"de_DE"}');
  await where.press('Enter');
  await browser.waitForRows();
  expect(decodeURIComponent(page.url())).toContain('where={"locale":"de_DE"}');
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());

  // Completion of a key from the collection's own paths: ↓ and Enter write it (Enter does not run).
  await browser.typeInBar('where', '{"na');
  await expect(browser.completionOptions('qb-bar-where')).toHaveText(['name.first', 'name.last']);
  await expect(where).toHaveAttribute('aria-expanded', 'true');
  await console_.screenshots('browse-where-completion');
  await where.press('ArrowDown');
  await where.press('Enter');
  await expect(where).toHaveValue('{"name.last": ');
  await expect(browser.completionOptions('qb-bar-where')).toHaveCount(0);
  await where.pressSequentially('"Smith"}');
  await where.press('Enter');
  await browser.waitForRows();
  expect(decodeURIComponent(page.url())).toContain('where={"name.last":"Smith"}');
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());
  expect((await browser.shownIds()).length).toBeGreaterThan(0);

  // Sort completes from the sortable paths only; Escape closes the list.
  await browser.typeInBar('sort', '{"em');
  await expect(browser.completionOptions('qb-bar-sort')).toHaveText(['email']);
  await page.getByTestId('qb-bar-sort').press('Escape');
  await expect(browser.completionOptions('qb-bar-sort')).toHaveCount(0);
  await page.getByTestId('qb-bar-sort').press('Backspace');
  await page.getByTestId('qb-bar-sort').press('Tab');
  await expect(page.getByTestId('qb-bar-sort')).toHaveValue('{"email": ');
  await page.getByTestId('qb-bar-sort').pressSequentially('-1}');
  await page.getByTestId('qb-bar-sort').press('Enter');
  await browser.waitForRows();
  expect(decodeURIComponent(page.url())).toContain('sort={"email":-1}');

  // paths: find a property and add it with Enter.
  await browser.openMenu('qb-paths');
  await page.getByTestId('qb-paths-find').fill('locale');
  // The collection's own path first, then the same member of a referenced account (issue 42).
  await expect
    .poll(() =>
      page.getByTestId('qb-path-option').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value)),
    )
    .toEqual(['locale', 'updater.locale']);
  await page.getByTestId('qb-paths-find').press('Enter');
  await expect(page.locator('[data-testid="qb-path-option"][value="locale"]')).toBeChecked();
  await expect(page.getByTestId('qb-paths').locator('summary')).toHaveText('paths: 1');

  // The JSON view completes too.
  await page.keyboard.press('Escape');
  await browser.expandBuilder();
  await browser.json().fill('');
  await browser.json().pressSequentially('{"cre');
  await expect(browser.completionOptions('qb-json')).toHaveText(['created']);
  await browser.json().press('Enter');
  await expect(browser.json()).toHaveValue('{"created": ');

  // The placeholder names the collection's own properties, not the account's.
  await page.goto(`${service.consoleUrl}#/browse?c=c_patientfiles`);
  await browser.waitForRows();
  const placeholder = (await where.getAttribute('placeholder')) ?? '';
  expect(placeholder).not.toContain('name.last');
  expect(placeholder).not.toContain('email');
  expect(placeholder).toMatch(/^\{"c_[a-z_]+"/);
});

test('the builder: a new condition starts valid, "starts with" is an escaped anchored regex both ways, and at 1024 the builder scrolls inside itself', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 20);
  await page.setViewportSize({ width: 1024, height: 700 });
  const { browser, console_ } = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts`);
  await browser.waitForRows();
  await browser.expandBuilder();

  // A new condition is a valid query as it stands: no error anywhere, Run enabled.
  await page.getByTestId('qb-add-condition').first().click();
  await expect(page.getByTestId('qb-condition')).toHaveCount(1);
  await expect(page.getByTestId('qb-json-error')).toHaveCount(0);
  await expect(page.getByTestId('qb-condition-json-only')).toHaveCount(0);
  await expect(page.getByTestId('qb-run')).toBeEnabled();

  // starts with: the typed text, escaped, anchored.
  const row = page.getByTestId('qb-condition').first();
  await row.getByTestId('qb-property').selectOption('name.last');
  await row.getByTestId('qb-operator').selectOption('startsWith');
  await row.getByTestId('qb-value').fill('Sm');
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"name.last":{"$regex":"/^Sm/"}}');
  await browser.run();
  const ids = await browser.shownIds();
  expect(ids).toEqual(await browser.apiIdsForShownRequest());
  expect(ids.length).toBeGreaterThan(0);
  await row.getByTestId('qb-value').fill('a.b');
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"name.last":{"$regex":"/^a\\\\.b/"}}');
  await row.getByTestId('qb-operator').selectOption('startsWithAnyCase');
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"name.last":{"$regex":"/^a\\\\.b/i"}}');

  // Read back from JSON: an anchored, escaped prefix shows as "starts with"; another regex stays a regex.
  await browser.typeJson('{"email":{"$regex":"/^user00/i"}}');
  await expect(page.getByTestId('qb-operator')).toHaveValue('startsWithAnyCase');
  await expect(page.getByTestId('qb-value')).toHaveValue('user00');
  await browser.typeJson('{"email":{"$regex":"/00/"}}');
  await expect(page.getByTestId('qb-operator')).toHaveValue('$regex');

  // Several conditions and a group at 1024×700: "+ Sort key" and the limit stay whole; the
  // conditions scroll inside the builder, and the page does not scroll.
  await browser.typeJson('');
  for (const path of ['name.last', 'email', 'locale', 'created']) await browser.addCondition(path, '$eq');
  await page.getByTestId('qb-add-group').first().click();
  await page.getByTestId('qb-add-condition').nth(1).click();
  expect(await browser.clippedBy('qb-sort-add')).toBe('');
  expect(await browser.clippedBy('qb-limit')).toBe('');
  expect((await browser.pageScrolls()).scrollHeight).toBeLessThanOrEqual(700);
  const where = await page
    .locator('.query-panel__where')
    .evaluate((el) => ({ scrolls: el.scrollHeight > el.clientHeight, overflow: getComputedStyle(el).overflowY }));
  expect(where).toEqual({ scrolls: true, overflow: 'auto' });
  await console_.screenshots('browse-builder-scrolls');
});
