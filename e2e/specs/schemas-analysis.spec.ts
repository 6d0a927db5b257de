import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';
import { SchemasPage } from '../pages/schemas-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());
test.setTimeout(300_000);

test('schema sample analysis, Reference properties, names that explain, demo-data cap (items 8, 13)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 9);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const schemas = new SchemasPage(page);
  await page.goto(`${service.consoleUrl}#/schemas?name=account`);
  await expect(page.getByTestId('schema-detail')).toBeVisible();

  // Sample: 10 accounts (9 seeded + the admin); seedAccounts makes every third a favourite.
  await page.getByTestId('schema-analyse').click();
  await expect(page.getByTestId('schema-sample-count')).toHaveText('10 records sampled — the whole collection');
  const row = (path: string) => page.locator(`[data-testid="schema-analysis-row"][data-path="${path}"]`);
  await expect(row('email').getByTestId('schema-present')).toContainText('100%');
  await expect(row('favorite')).toContainText('Boolean');
  await expect(row('favorite')).toContainText('false ×');
  await expect(row('created').locator('.histogram')).toBeVisible();
  await row('email').scrollIntoViewIfNeeded();
  await schemas.screenshot('schemas-analysis-1440-light');
  await page.setViewportSize({ width: 1024, height: 700 });
  await row('favorite').scrollIntoViewIfNeeded();
  await schemas.screenshot('schemas-analysis-1024-light');
  await page.getByTestId('theme-toggle').click();
  await schemas.screenshot('schemas-analysis-1024-dark');
  await page.setViewportSize({ width: 1440, height: 900 });
  await schemas.screenshot('schemas-analysis-1440-dark');
  await page.getByTestId('theme-toggle').click();

  // A custom object with a Reference property, after a refused name that says why.
  await schemas.fillNewObject('visit', 'Visit', { suffix: 'Owner', type: 'Reference' });
  await expect(page.getByText('Names are lower case: "O" would be "o".')).toBeVisible();
  await page.getByTestId('schema-prop-0-name').fill('owner');
  await expect(page.getByTestId('schema-create')).toBeDisabled();
  await page.getByTestId('schema-prop-0-ref').selectOption('account');
  await page.getByTestId('schema-create').click();
  await expect(page.getByTestId('schema-detail')).toContainText('c_visit');
  const ownerRow = schemas.pathRows().filter({ hasText: 'c_owner' });
  await expect(ownerRow).toContainText('Reference');
  await expect(ownerRow).toContainText('account');

  // Demo data: the console takes the service's cap of 1,000,000 and refuses one more.
  await page.getByTestId('nav-demo-data').click();
  await page.getByTestId('seed-count').fill('1000000');
  await expect(page.getByTestId('seed-start')).toBeEnabled();
  await page.getByTestId('seed-count').fill('1000001');
  await expect(page.getByTestId('seed-start')).toBeDisabled();
  await expect(page.getByText('Enter a whole number from 1 to 1,000,000.')).toBeVisible();
  await page.getByTestId('seed-count').fill('300');
  await page.getByTestId('seed-start').click();
  await expect(page.getByTestId('seed-state')).toHaveText('Done.', { timeout: 60_000 });
  await schemas.screenshot('demo-data-1440-light');
});
