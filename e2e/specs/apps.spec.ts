import { expect, test, type Page } from '@playwright/test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { AppsPage, bearerGet, secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { OutboxPage, SESSION_VIEWPORTS } from '../pages/outbox-page';
import type { ObjectsApi } from '../pages/objects-api';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

async function signIn(page: Page): Promise<{ console_: ConsolePage; apps: AppsPage; api: ObjectsApi }> {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const apps = new AppsPage(page);
  await apps.open();
  return { console_, apps, api };
}

async function appByLabel(api: ObjectsApi, label: string) {
  const list = await api.get<{
    data: { key: string; label: string; secret: string | null; expose: boolean; rsa: { kid: string } }[];
  }>('apps');
  const app = list.body.data.find((a) => a.label === label);
  if (!app) throw new Error(`no app ${label}`);
  return app;
}

async function mintFor(api: ObjectsApi, appKey: string, extra: Record<string, unknown> = {}): Promise<string> {
  const me = await api.get<{ _id: string }>('accounts/me');
  const minted = await api.send<{ data: string }>('POST', `accounts/${me.body._id}/tokens`, {
    app: appKey,
    scope: ['*'],
    ...extra,
  });
  expect(minted.status).toBe(200);
  return minted.body.data;
}

test('create a signing app: the secret is shown once, edits get per-field faults, the secret rotates', async ({
  page,
}) => {
  const { console_, apps, api } = await signIn(page);
  await expect(apps.item('Admin console')).toBeVisible();
  await console_.screenshot('apps');

  await apps.startCreate('signing', 'Billing backend');
  await page.getByTestId('app-authDuration').fill('30');
  await apps.save();
  await expect(apps.fieldError('app-authDuration')).toContainText('60');
  await page.getByTestId('app-authDuration').fill('1800');
  await page.getByTestId('app-corsOrigins').fill('https://billing.example');
  await apps.save();

  await expect(apps.secretDialog()).toBeVisible();
  await console_.screenshot('apps-secret-once');
  // One stray key press or click cannot lose the secret (issue #18 item 2): Escape and a click on
  // the backdrop ask first, and "Keep it open" leaves the secret on screen.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('dialog-guard')).toBeVisible();
  await expect(page.getByTestId('secret-value')).toBeVisible();
  await console_.screenshots('apps-secret-guard');
  await page.getByTestId('dialog-guard-stay').click();
  await expect(page.getByTestId('dialog-guard')).toHaveCount(0);
  await page.mouse.click(4, 4);
  await expect(page.getByTestId('dialog-guard')).toBeVisible();
  await expect(apps.secretDialog()).toBeVisible();
  await page.getByTestId('dialog-guard-stay').click();
  const secret = await apps.takeSecret();
  expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);
  await expect(page.getByTestId('app-title')).toHaveText('Billing backend');
  await apps.tab('keys');
  await expect(page.getByTestId('app-secret-masked')).toHaveText(`••••…${secret.slice(-4)}`);
  await apps.tab('settings');
  // The secret is nowhere the page keeps state.
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + JSON.stringify(history.state),
  );
  expect(stored).not.toContain(secret);
  await expect(page.locator('body')).not.toContainText(secret);
  const created = await appByLabel(api, 'Billing backend');
  expect(created.secret).toBe(`••••…${secret.slice(-4)}`);

  // A fault only the service can find (the picked account was deleted meanwhile) lands on its field.
  const gone = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'gone@demo.test',
    password: 'staple horse 42',
  });
  await apps.pickPrincipal('gone@');
  await api.send('DELETE', `accounts/${gone.body._id}`);
  await page.getByTestId('app-maxTokensPerPrincipal').fill('25');
  await apps.save();
  await expect(apps.fieldError('app-principalId')).toBeVisible();
  await console_.screenshot('apps-field-fault');
  await page.getByTestId('app-principalId-clear').click();
  await apps.save();
  await expect(page.getByTestId('app-saved')).toBeVisible();
  const saved = await api.get<{ maxTokensPerPrincipal: number; corsOrigins: string[] }>(`apps/${created.key}`);
  expect(saved.body).toMatchObject({ maxTokensPerPrincipal: 25, corsOrigins: ['https://billing.example'] });

  await apps.tab('keys');
  await page.getByTestId('rotate-secret').click();
  await expect(page.getByTestId('rotate-secret-dialog').getByTestId('rotation-preview')).toContainText(
    'stop verifying',
  );
  await page.getByTestId('rotate-secret-confirm').click();
  // Confirming the guard closes the dialog: the secret is gone for good.
  await expect(apps.secretDialog()).toBeVisible();
  const rotated = (await page.getByTestId('secret-value').textContent()) ?? '';
  await page.keyboard.press('Escape');
  await page.getByTestId('dialog-guard-leave').click();
  await expect(apps.secretDialog()).toHaveCount(0);
  expect(rotated).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(rotated).not.toBe(secret);
  expect((await appByLabel(api, 'Billing backend')).secret).toBe(`••••…${rotated.slice(-4)}`);

  // The console app cannot be deleted or disabled.
  await apps.select('Admin console');
  await apps.tab('settings');
  await expect(page.getByTestId('app-delete')).toHaveCount(0);
  await expect(page.getByTestId('app-enabled')).toBeDisabled();
});

test('Expose Keys publishes the app’s JWK and PEM, and a minted token verifies against it', async ({ page }) => {
  const { console_, apps, api } = await signIn(page);
  await apps.startCreate('session', 'Mobile');
  await apps.save();
  await expect(page.getByTestId('app-title')).toHaveText('Mobile');
  // One Expose keys control: on the Keys tab, not repeated in the settings form.
  await expect(page.getByTestId('app-expose')).toHaveCount(0);
  await apps.tab('keys');
  await expect(page.getByTestId('expose-off')).toBeVisible();
  const app = await appByLabel(api, 'Mobile');
  const before = await fetch(`${service.url}/demo/v2/auth/certs/jwk`).then((r) => r.json() as Promise<JSONWebKeySet>);
  expect(before.keys.map((k) => k.kid)).not.toContain(app.rsa.kid);

  await page.getByTestId('expose-toggle').click();
  await expect(page.getByTestId('published-jwk')).toContainText(app.rsa.kid);
  await expect(page.getByTestId('published-pem')).toContainText('BEGIN PUBLIC KEY');
  await page.getByTestId('expose-section').scrollIntoViewIfNeeded();
  await console_.screenshot('apps-exposed-keys');

  const jwks = await fetch(`${service.url}/demo/v2/auth/certs/jwk`).then((r) => r.json() as Promise<JSONWebKeySet>);
  expect(jwks.keys.map((k) => k.kid)).toContain(app.rsa.kid);
  const token = await mintFor(api, app.key);
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
    audience: `${service.url}/demo/v2`,
  });
  expect(protectedHeader.kid).toBe(app.rsa.kid);
  expect(payload.iss).toBe(app.key);

  await page.getByTestId('expose-toggle').click();
  await expect(page.getByTestId('expose-off')).toBeVisible();
  const after = await fetch(`${service.url}/demo/v2/auth/certs/jwk`).then((r) => r.json() as Promise<JSONWebKeySet>);
  expect(after.keys.map((k) => k.kid)).not.toContain(app.rsa.kid);
});

test('regenerating the RSA pair (typed confirmation) makes a minted token fail', async ({ page }) => {
  const { console_, apps, api } = await signIn(page);
  await apps.startCreate('session', 'Kiosk');
  await apps.save();
  await expect(page.getByTestId('app-title')).toHaveText('Kiosk');
  const app = await appByLabel(api, 'Kiosk');
  const stored = await mintFor(api, app.key, { permanent: true });
  const ephemeral = await mintFor(api, app.key);
  expect((await bearerGet(service.url, stored)).status).toBe(200);
  expect((await bearerGet(service.url, ephemeral)).status).toBe(200);

  await apps.tab('tokens');
  await expect(page.getByTestId('app-token-count')).toHaveText('1');
  // Regenerate sits with the key pair and its public key, on the Keys tab.
  await apps.tab('keys');
  await page.getByTestId('regenerate-rsa').click();
  const dialog = page.getByTestId('rsa-dialog');
  await expect(dialog.getByTestId('preview-tokens')).toHaveText('1');
  await dialog.getByTestId('rsa-confirm-text').fill('kiosk');
  await expect(dialog.getByTestId('rsa-confirm')).toBeDisabled();
  await dialog.getByTestId('rsa-confirm-text').fill('Kiosk');
  await expect(dialog.getByTestId('rsa-confirm')).toBeEnabled();
  await console_.screenshot('apps-regenerate-rsa');
  await dialog.getByTestId('rsa-confirm').click();
  await expect(page.getByTestId('rsa-done')).toBeVisible();
  await expect(page.getByTestId('app-kid')).not.toHaveText(app.rsa.kid);

  for (const token of [stored, ephemeral]) {
    const refused = await bearerGet(service.url, token);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.object).toBe('fault');
    expect(String(refused.body.errCode)).toMatch(/^service\.(accessDenied|expired|invalidArgument)\./);
  }
});

test('tabs: the selection survives leaving and returning; sessions show where from and mark your own', async ({
  page,
}) => {
  const { console_, apps, api } = await signIn(page);
  await apps.startCreate('session', 'Kiosk');
  await apps.save();
  await expect(page.getByTestId('app-title')).toHaveText('Kiosk');
  await apps.tab('tokens');
  await console_.screenshots('apps-tokens-tab');

  // Leave for another screen and come back through the sidebar: same app, same tab.
  await page.getByTestId('nav-tokens').click();
  await expect(page.getByTestId('mint-form')).toBeVisible();
  await page.getByTestId('nav-apps').click();
  await expect(page.getByTestId('app-title')).toHaveText('Kiosk');
  await expect(page.getByTestId('app-tab-tokens')).toHaveAttribute('aria-selected', 'true');

  // The console's own app: its live sessions, the console's own marked, with address and browser.
  await apps.select('Admin console');
  await apps.tab('sessions');
  const own = page.getByTestId('app-sessions-table').locator('[data-current="true"]');
  await expect(own).toHaveCount(1);
  await expect(own.getByTestId('session-own')).toBeVisible();
  await expect(own.getByTestId('session-ip')).toHaveText(/127\.0\.0\.1/);
  const agent = await page.evaluate(() => navigator.userAgent);
  await expect(own.getByTestId('session-ua')).toHaveText(agent.slice(0, 300));
  const sessions = await api.get<{ data: { current: boolean; ip: string | null }[] }>('sessions');
  expect(sessions.body.data.length).toBeGreaterThanOrEqual(2);
  // The table fits the tab at 1024×700 and 1440×900: End in view, the user agent two lines at most.
  const outbox = new OutboxPage(page);
  for (const viewport of SESSION_VIEWPORTS) {
    await page.setViewportSize(viewport);
    await outbox.expectSessionsFit('app-sessions-table');
  }
  await console_.screenshots('apps-sessions-tab');

  // Times are UTC on screen, local on hover.
  await apps.tab('keys');
  const created = page.getByTestId('app-panel-keys').locator('time').first();
  await expect(created).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  await expect(created).toHaveAttribute('title', /local time/);
  await console_.screenshots('apps-keys-tab');
  await apps.tab('settings');
  await console_.screenshots('apps-settings-tab');
});

test('name and name mapping: a bad name is marked as typed, a taken one gets the service’s fault on its field, a cleared one is removed', async ({
  page,
}) => {
  const { console_, apps, api } = await signIn(page);
  const taken = await api.send('POST', 'apps', { label: 'Web', kind: 'session', name: 'c_taken_app' });
  expect(taken.status).toBe(200);
  await apps.startCreate('session', 'Patients');
  await apps.save();
  await expect(page.getByTestId('app-title')).toHaveText('Patients');
  const app = await appByLabel(api, 'Patients');

  // The form's own check, as typed: the service's rule (a letter first, never shaped like a key).
  await page.getByTestId('app-name').fill('1 patients');
  await apps.save();
  await expect(apps.fieldError('app-name')).toContainText('A letter');
  // A name only the service can refuse (another app has it) lands on the name field.
  await page.getByTestId('app-name').fill('c_taken_app');
  await page.getByTestId('app-allowNameMapping').check();
  await apps.save();
  await expect(apps.fieldError('app-name')).toContainText('Another application');
  await page.getByTestId('app-name').scrollIntoViewIfNeeded();
  await console_.screenshots('apps-name-fault');

  await page.getByTestId('app-name').fill('c_patient_app');
  await apps.save();
  await expect(page.getByTestId('app-saved')).toBeVisible();
  await expect(page.getByTestId('app-name-note')).toHaveText('c_patient_app');
  const named = await api.get<{ name?: string; allowNameMapping?: boolean }>(`apps/${app.key}`);
  expect(named.body).toMatchObject({ name: 'c_patient_app', allowNameMapping: true });
  await expect(page.getByTestId('app-name')).toHaveValue('c_patient_app');
  await expect(page.getByTestId('app-allowNameMapping')).toBeChecked();
  await console_.screenshots('apps-name-saved');

  // Cleared and saved: the service drops the name (PATCH name: null).
  await page.getByTestId('app-name').fill('');
  await page.getByTestId('app-allowNameMapping').uncheck();
  await apps.save();
  await expect(page.getByTestId('app-name-note')).toHaveCount(0);
  const cleared = await api.get<{ name?: string; allowNameMapping?: boolean }>(`apps/${app.key}`);
  expect(cleared.body.name).toBeUndefined();
  expect(cleared.body.allowNameMapping).toBe(false);
});
