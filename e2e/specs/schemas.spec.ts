import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { RecordsPage } from '../pages/records-page';
import { SchemasPage } from '../pages/schemas-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('browse definitions and paths; create a custom object and property', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const schemas = new SchemasPage(page);
  await schemas.open();
  await schemas.select('Account');
  await expect(schemas.pathRows().filter({ hasText: 'name.last' })).toContainText('indexed');
  await expect(schemas.pathRows().filter({ hasText: 'c_enrollments.c_study' })).toBeVisible();
  await console_.screenshot('schemas');

  // The c_ prefix is fixed in the form; the rest must be lower-case.
  await schemas.fillNewObject('Visit', 'Visit', { suffix: 'note', type: 'String' });
  await expect(page.getByTestId('schema-create')).toBeDisabled();
  await page.getByTestId('schema-name').fill('visit');
  await page.getByTestId('schema-create').click();
  await expect(page.getByTestId('schema-detail')).toContainText('c_visits');
  await expect(schemas.pathRows().filter({ hasText: 'c_note' })).toContainText('indexed');

  await schemas.addProperty('score', 'Integer');
  await expect(schemas.pathRows().filter({ hasText: 'c_score' })).toContainText('Integer');
  const api = await new RecordsPage(page).apiGet('schemas/c_visit');
  expect((api.body.paths as { path: string }[]).map((p) => p.path)).toEqual(
    expect.arrayContaining(['c_note', 'c_score']),
  );
  await console_.screenshot('schemas-custom');

  // The new collection is queryable right away.
  await page.getByRole('button', { name: 'Browse records' }).click();
  const browser = new ObjectBrowserPage(page);
  await expect(page.getByTestId('collection-picker')).toHaveValue('c_visits');
  await browser.addCondition('c_score', '$gte', '3');
  await browser.run();
  await expect(page.getByTestId('result-empty')).toBeVisible();
});

test('seed demo accounts with a progress bar', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/demo-data`);
  await console_.login(EMAIL, PASSWORD);
  await page.getByTestId('seed-count').fill('120');
  await page.getByTestId('seed-start').click();
  await expect(page.getByTestId('seed-progress')).toBeVisible();
  await expect(page.getByTestId('seed-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await console_.screenshot('demo-data');
  const count = await new RecordsPage(page).apiGet('accounts?limit=1000&paths[]=_id');
  expect((count.body.data as unknown[]).length).toBe(121);
});
