import { expect, test } from '@playwright/test';
import { rmSync } from 'node:fs';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

/** Issue 44 item 14: a lost service is retried on its own, with a banner, not left to a click. */
const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService | undefined;
let dataDir: string | undefined;
test.afterEach(async () => {
  await service?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
test.setTimeout(300_000);

test('the service stops and comes back: a banner says so and the console recovers without a click', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  dataDir = service.dataDir;
  const port = new URL(service.url).port;
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 3);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const browser = new ObjectBrowserPage(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts`);
  await browser.waitForRows();

  // The service goes away; the next request finds it gone.
  await service.stop({ keepData: true });
  service = undefined;
  await page.getByRole('button', { name: 'Refresh' }).click();
  const banner = page.getByTestId('service-lost');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText('Trying again on its own');
  await console_.screenshots('service-lost');

  // It comes back on the same address: the banner goes and the rows return, with no click.
  service = await startHeadlessService(['--port', port], dataDir);
  await expect(banner).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('result-grid')).toBeVisible();
  await expect(page.getByTestId('fault-message')).toHaveCount(0);

  // At start-up: the service's info unreachable, the failure screen retries on its own too.
  await page.route('**/_service/info', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByTestId('boot-retry')).toBeVisible({ timeout: 30_000 });
  await console_.screenshot('service-lost-boot-1440-light');
  await page.unroute('**/_service/info');
  await expect(page.getByTestId('current-user')).toBeVisible({ timeout: 60_000 });
});
