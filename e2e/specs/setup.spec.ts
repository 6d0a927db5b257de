import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});
test.setTimeout(120_000);

test('first run proposes the service’s --org, asks the password twice and takes the names', async ({ page }) => {
  service = await startHeadlessService(['--org', 'acme-labs']);
  const console_ = new ConsolePage(page);
  await page.goto(service.consoleUrl);
  await expect(page.getByTestId('setup-form')).toBeVisible();
  await expect(page.getByTestId('setup-org')).toHaveValue('acme-labs');

  await page.getByTestId('setup-org-name').fill('Acme Labs');
  await page.getByTestId('setup-first').fill('Ada');
  await page.getByTestId('setup-last').fill('Lovelace');
  await page.getByTestId('setup-email').fill('ada@acme.test');
  await page.getByTestId('setup-password').fill('an engine of analysis');
  await page.getByTestId('setup-confirm').fill('an engine of analysis!');
  await page.getByTestId('setup-submit').click();
  await expect(page.getByTestId('setup-form')).toContainText('The two passwords differ.');
  await console_.screenshots('setup-confirm-mismatch');
  await page.getByTestId('setup-confirm').fill('an engine of analysis');
  await page.getByTestId('setup-submit').click();

  await expect(page.getByTestId('current-user')).toContainText('ada@acme.test');
  await expect(page.locator('.org-chip__name')).toHaveText('Acme Labs');
  const me = await page.evaluate(async () => {
    const info = await (await fetch('/_service/info')).json();
    const key = info.data.orgs[0].consoleAppKey as string;
    const res = await fetch('/acme-labs/v2/accounts/me', { headers: { 'Service-Client-Key': key } });
    return (await res.json()) as { name?: { first?: string; last?: string } };
  });
  expect(me.name).toMatchObject({ first: 'Ada', last: 'Lovelace' });
});
