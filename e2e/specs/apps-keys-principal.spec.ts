/**
 * Issue #44 item 11: "Regenerate RSA pair" sits beside the public key it replaces (Keys tab), and
 * an app's principal is picked by searching accounts by email or name, not typed as an id.
 */
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { AppsPage, secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});

test('the key pair, its public key and Regenerate together; the principal from a picker', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const ann = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'ann.smith@demo.test',
    password: 'staple horse 42',
    name: { first: 'Ann', last: 'Smith' },
  });
  expect(ann.status).toBe(200);
  const created = await api.send<{ key: string; rsa: { kid: string } }>('POST', 'apps', {
    label: 'Bridge',
    kind: 'signing',
    expose: true,
  });
  expect(created.status).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const apps = new AppsPage(page);
  await apps.open();
  await apps.select('Bridge');

  // Keys: one section holds the pair's kid, its published public key and the button that replaces it.
  await apps.tab('keys');
  const pair = page.getByTestId('key-pair-section');
  await expect(pair.getByTestId('regenerate-rsa')).toHaveText('Regenerate RSA pair…');
  await expect(pair.getByTestId('app-kid')).toHaveText(created.body.rsa.kid);
  await expect(pair.getByTestId('published-jwk')).toContainText(created.body.rsa.kid);
  await expect(pair.getByTestId('published-pem')).toContainText('BEGIN PUBLIC KEY');
  await console_.screenshots('apps-keys-pair');
  // The Tokens tab no longer holds a second copy of the control.
  await apps.tab('tokens');
  await expect(page.getByTestId('regenerate-rsa')).toHaveCount(0);
  await expect(page.getByTestId('app-panel-tokens')).toContainText(created.body.rsa.kid);

  // Regenerating from the Keys tab replaces the public key shown right there.
  await apps.regenerateRsa('Bridge');
  await expect(pair.getByTestId('app-kid')).not.toHaveText(created.body.rsa.kid);
  const kid = (await pair.getByTestId('app-kid').textContent()) ?? '';
  await expect(pair.getByTestId('published-jwk')).toContainText(kid);
  await expect(pair.getByTestId('published-jwk')).not.toContainText(created.body.rsa.kid);

  // Principal: searched by name, picked with the keyboard, saved as the account's _id.
  await apps.tab('settings');
  const principal = page.getByTestId('app-principalId');
  await expect(principal).toHaveAttribute('role', 'combobox');
  await principal.fill('smi');
  await expect(page.getByTestId('app-principalId-option')).toHaveCount(1);
  await expect(page.getByTestId('app-principalId-option')).toContainText('Ann Smith <ann.smith@demo.test>');
  await console_.screenshots('apps-principal-picker');
  await principal.press('ArrowDown');
  await principal.press('Enter');
  await expect(principal).toHaveValue('Ann Smith <ann.smith@demo.test>');
  await apps.save();
  await expect(page.getByTestId('app-saved')).toBeVisible();
  const saved = await api.get<{ principalId: string | null }>(`apps/${created.body.key}`);
  expect(saved.body.principalId).toBe(ann.body._id);
  // Shown by name when the app is opened again.
  await page.reload();
  await expect(page.getByTestId('app-principalId')).toHaveValue('Ann Smith <ann.smith@demo.test>');
  await console_.screenshots('apps-principal-picked');

  // Cleared: anonymous again.
  await page.getByTestId('app-principalId-clear').click();
  await expect(page.getByTestId('app-principalId')).toHaveValue('');
  await apps.save();
  await expect(page.getByTestId('app-saved')).toBeVisible();
  expect((await api.get<{ principalId: string | null }>(`apps/${created.body.key}`)).body.principalId).toBeNull();
});
