import { expect, test } from '@playwright/test';
import { rmSync } from 'node:fs';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('first-run setup, the accounts grid, logout and login again', async ({ page }) => {
  service = await startHeadlessService();
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.screenshot('01-setup');
  await console_.completeSetup('demo', 'admin@demo.test', 'a strong password');

  await expect(console_.grid()).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText('admin@demo.test');
  await expect(console_.rows()).toHaveCount(1);
  await expect(console_.rows().first()).toContainText('admin@demo.test');

  // The grid shows what the API answers for the same request.
  const api = await page.evaluate(async () => {
    const info = await (await fetch('/_service/info')).json();
    const key = info.data.orgs[0].consoleAppKey as string;
    const res = await fetch('/demo/v2/accounts?limit=25', { headers: { 'Service-Client-Key': key } });
    return (await res.json()) as { data: { email: string }[] };
  });
  expect(api.data.map((a) => a.email)).toEqual(['admin@demo.test']);
  await console_.screenshot('02-accounts-grid');

  await console_.logout();
  await console_.screenshot('03-login');
  await console_.login('admin@demo.test', 'wrong password');
  await expect(page.getByTestId('fault-errcode')).toContainText('service.accessDenied.invalidCredentials');
  await console_.screenshot('04-login-fault');
  await console_.login('admin@demo.test', 'a strong password');
  await expect(console_.rows()).toHaveCount(1);
});

test('a restart with the same data dir keeps the org and administrator', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', 'boss@demo.test', '--admin-password', 'another password']);
  expect(service.output()).toContain('Created org "demo" with administrator boss@demo.test');
  const dataDir = service.dataDir;
  await service.stop({ keepData: true });
  service = await startHeadlessService([], dataDir);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login('boss@demo.test', 'another password');
  await expect(console_.rows()).toHaveCount(1);
  await console_.screenshot('05-after-restart');
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
});
