/**
 * Issue #44 item 13: the signed-request composer has query-parameter and header editors, shows the
 * response headers, keeps a history of sent requests (in memory only: secrets never go to storage
 * or the URL), turns Replay off once the request changed, and brings the answer into view.
 */
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { checkerApi } from '../pages/accounts-admin-page';
import { ConsolePage } from '../pages/console-page';
import { SignedRequestsPage } from '../pages/signed-requests-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const HEADER_SECRET = 'header-credential-4f2a9c';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});

test('parameters and headers, response headers, history, Replay only for the request sent', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const created = await api.send<{ key: string; secret: string }>('POST', 'apps', {
    label: 'Records bridge',
    kind: 'signing',
    principalOverride: true,
  });
  expect(created.status).toBe(200);
  for (const n of [1, 2, 3]) {
    const account = await api.send('POST', 'accounts', { email: `user${n}@demo.test`, password: 'staple horse 42' });
    expect(account.status).toBe(200);
  }
  const view = await api.send('POST', 'views', {
    name: 'all_accounts',
    sourceObject: 'account',
    acl: [{ type: 'account', target: '*' }],
    limit: { settable: true, defaultValue: 10, min: 1, max: 100 },
    query: [{ name: 'sort', value: '{"email":1}' }],
  });
  expect(view.status).toBe(200);
  const { key, secret } = created.body;

  await page.setViewportSize({ width: 1024, height: 700 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const composer = new SignedRequestsPage(page);
  await composer.open();
  await composer.compose({ app: key, secret, method: 'GET', path: '/views/all_accounts', as: EMAIL });
  await composer.addRow('param', 'limit', '2');
  await composer.addRow('header', 'Accept', 'application/x-ndjson');
  await composer.addRow('header', 'X-Api-Token', HEADER_SECRET);
  // The query rows are the path's query: signed with it, and kept in the composer's URL state.
  expect(page.url()).toContain(encodeURIComponent('/views/all_accounts?limit=2'));
  await console_.screenshots('signed-editors-form');

  // Sent from a 1024×700 window, where the answer lands below the form.
  await page.setViewportSize({ width: 1024, height: 700 });
  await composer.send();
  await expect(page.getByTestId('signed-status')).toHaveText('200');
  await expect(composer.value('message')).toContainText(';limit=2;');
  // The answer is brought into view (below the form at 1024 px).
  await expect(page.getByTestId('signed-response')).toBeInViewport();
  await console_.screenshot('signed-editors-answer-in-view-1024-light');
  // The header was sent (the view answered NDJSON, one account a line) and the response headers are shown.
  const body = (await page.getByTestId('signed-body').textContent()) ?? '';
  expect(body.trim().split('\n')).toHaveLength(2);
  await expect(page.getByTestId('signed-headers')).toContainText('content-type');
  await expect(page.getByTestId('signed-headers')).toContainText('application/x-ndjson');
  await expect(page.getByTestId('signed-headers')).toContainText('service-server-time');
  await console_.screenshots('signed-editors-response');

  // Replay is for the request sent: off once the form changes, on again when it says the same.
  await expect(page.getByTestId('signed-replay')).toBeEnabled();
  await page.getByTestId('signed-param-value').first().fill('3');
  await expect(page.getByTestId('signed-replay')).toBeDisabled();
  await expect(page.getByTestId('signed-replay-note')).toBeVisible();
  await page.getByTestId('signed-param-value').first().fill('2');
  await expect(page.getByTestId('signed-replay')).toBeEnabled();
  await page.getByTestId('signed-header-value').first().fill('application/json');
  await expect(page.getByTestId('signed-replay')).toBeDisabled();

  // A second request, then the history loads the first back into the form (never the secret).
  await page.getByTestId('signed-header-remove').first().click();
  await page.getByTestId('signed-param-remove').first().click();
  await page.getByTestId('signed-path').fill('/accounts/me');
  await composer.send();
  await expect(page.getByTestId('signed-status')).toHaveText('200');
  const history = page.getByTestId('signed-history-item');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('GET /accounts/me');
  await expect(history.nth(1)).toContainText('GET /views/all_accounts?limit=2');
  await expect(history.nth(1)).toHaveAttribute('data-status', '200');
  await page.getByTestId('signed-history').scrollIntoViewIfNeeded();
  await console_.screenshots('signed-editors-history');
  await history.nth(1).getByTestId('signed-history-load').click();
  await expect(page.getByTestId('signed-path')).toHaveValue('/views/all_accounts');
  await expect(composer.rows('param')).toHaveCount(1);
  await expect(page.getByTestId('signed-param-value')).toHaveValue('2');
  await expect(page.getByTestId('signed-header-value').nth(0)).toHaveValue('application/x-ndjson');
  await expect(page.getByTestId('signed-header-value').nth(1)).toHaveValue(HEADER_SECRET);
  await expect(page.getByTestId('signed-secret')).toHaveValue(secret);
  // Loaded from the history is a change from the last send: no replay of another request's headers.
  await expect(page.getByTestId('signed-replay')).toBeDisabled();

  // The history survives leaving the screen (memory), not a reload (nothing is stored).
  await page.getByTestId('nav-views').click();
  await composer.open();
  await expect(history).toHaveCount(2);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  for (const secretText of [secret, HEADER_SECRET]) {
    expect(page.url()).not.toContain(secretText);
    expect(stored).not.toContain(secretText);
  }

  // A header the signer sets, or one a browser drops, is said instead of silently lost.
  await composer.addRow('header', 'Cookie', 'a=b');
  await page.getByTestId('signed-send').click();
  await expect(page.getByTestId('signed-problem')).toContainText('does not let a page send Cookie');
  await page.reload();
  await expect(page.getByTestId('signed-form')).toBeVisible();
  await expect(page.getByTestId('signed-history-item')).toHaveCount(0);
});
