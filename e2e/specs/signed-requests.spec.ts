import { expect, test } from '@playwright/test';
import { createHash, createHmac } from 'node:crypto';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { checkerApi } from '../pages/accounts-admin-page';
import { SignedRequestsPage } from '../pages/signed-requests-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
// The page goes first: an open browser socket that has sent no request yet keeps the service's
// shutdown waiting (Node closes only idle keep-alive sockets at once).
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});
test.setTimeout(120_000);

test('a signed request from the composer succeeds and its replay is refused', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const created = await api.send<{ key: string; secret: string }>('POST', 'apps', {
    label: 'Records bridge',
    kind: 'signing',
    principalOverride: true,
  });
  expect(created.status).toBe(200);
  const { key, secret } = created.body;

  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const composer = new SignedRequestsPage(page);
  await composer.open();
  await expect(page.getByTestId('signed-empty')).toBeVisible();
  // The subtitle states what the page signs: version 2 (docs/signing.md), not version 1.
  await expect(page.getByTestId('signed-formula')).toHaveText(
    'HMAC-SHA256(key + secret, command;METHOD;timestamp;nonce;canonical query;hex sha256(body))',
  );

  // Missing secret: said in words, nothing sent.
  await composer.compose({ app: key, secret: '', method: 'GET', path: '/accounts/me/', as: EMAIL });
  await page.getByTestId('signed-send').click();
  await expect(page.getByTestId('signed-problem')).toContainText('secret');

  await composer.compose({ app: key, secret, method: 'GET', path: '/accounts/me', as: EMAIL });
  await composer.send();
  await expect(page.getByTestId('signed-status')).toHaveText('200');
  const body = JSON.parse((await page.getByTestId('signed-body').textContent()) ?? '{}') as { email: string };
  expect(body.email).toBe(EMAIL);

  // What the page shows is the algorithm of docs/signing.md, recomputed here independently.
  await expect(composer.value('command')).toHaveText('/accounts/me');
  const timestamp = ((await composer.value('timestamp').textContent()) ?? '').split(' ')[0] ?? '';
  await expect(composer.value('nonce')).toHaveText(/^[a-z0-9]{16}$/i);
  const nonce = (await composer.value('nonce').textContent()) ?? '';
  // Version 2: nonce, canonical query (none) and the SHA-256 of the (empty) body are signed too.
  const message = `/accounts/me;GET;${timestamp};${nonce};;${createHash('sha256').update('').digest('hex')}`;
  await expect(composer.value('message')).toHaveText(message);
  const expected = createHmac('sha256', key + secret)
    .update(message)
    .digest('hex');
  await expect(composer.value('signature')).toHaveText(expected);

  // The secret never reaches the URL or storage.
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toContain(secret);
  expect(page.url()).toContain(`app=${key}`);

  await composer.replay();
  await expect(page.getByTestId('replay-status')).toHaveText('403');
  await expect(page.getByTestId('replay-errcode')).toHaveText('service.accessDenied.invalidRequestSignature');
  await composer.screenshot('signed-requests');

  // A signed POST with a body creates what it says (and the service records the principal).
  await composer.compose({
    app: key,
    secret,
    method: 'POST',
    path: 'accounts',
    as: EMAIL,
    body: '{"email":"signed@demo.test","password":"staple horse 42"}',
  });
  await composer.send();
  await expect(page.getByTestId('signed-status')).toHaveText('200');
  const list = await api.get<{ data: { email: string }[] }>(
    `accounts?where=${encodeURIComponent('{"email":"signed@demo.test"}')}`,
  );
  expect(list.body.data.map((a) => a.email)).toEqual(['signed@demo.test']);

  // Copy as curl: a fresh signature that a shell would send once.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await composer.compose({ app: key, secret, method: 'GET', path: '/accounts/me', as: EMAIL });
  await page.getByTestId('signed-copy-curl').click();
  await expect(page.getByTestId('signed-curl')).toContainText("-H 'Service-Client-Signature: ");
  await expect(page.getByTestId('signed-curl')).not.toContainText(secret);

  // A wrong secret: the service's refusal, shown with its errCode.
  await composer.compose({ app: key, secret: 'x'.repeat(64), method: 'GET', path: '/accounts/me', as: EMAIL });
  await composer.send();
  await expect(page.getByTestId('signed-status')).toHaveText('403');
  await expect(page.getByTestId('signed-errcode')).toHaveText('service.accessDenied.invalidRequestSignature');
  await page.getByTestId('theme-toggle').click();
  await composer.screenshot('signed-requests-dark');
});
