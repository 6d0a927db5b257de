import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { bearerGet, secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { TokensPage, jwtPayload } from '../pages/tokens-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('mint with live scope checks and exclusions, decode, verify offline, try it, revoke', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const app = await api.send<{ key: string }>('POST', 'apps', { label: 'Partner API', kind: 'signing', expose: true });
  const ann = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'ann.smith@demo.test',
    password: 'staple horse 42',
    name: { first: 'Ann', last: 'Smith' },
  });
  expect(ann.status).toBe(200);

  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const lab = new TokensPage(page);
  await lab.open();
  await expect(page.getByTestId('mint-submit')).toBeDisabled();
  await lab.pickAccount('ann.sm');
  await expect(page.getByTestId('lab-account')).toHaveValue('Ann Smith <ann.smith@demo.test>');
  await lab.pickApp('Partner API');
  expect(page.url()).toContain(`account=${ann.body._id}`);
  expect(page.url()).toContain(`app=${app.body.key}`);

  // Live scope-chain validation with the shared parser.
  await lab.setScope('object.read.account.*.name\nobject.read.account.name');
  await expect(page.getByTestId('mint-chain').nth(1)).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('mint-chains')).toContainText('object.read.account.name —');
  await expect(page.getByTestId('mint-submit')).toBeDisabled();
  await lab.setScope('*');

  // Exclusions: a delayed start rules out permanent, and permanent rules out a delayed start.
  await page.getByTestId('mint-start-activatesIn').check();
  await expect(page.getByTestId('mint-permanent')).toBeDisabled();
  await page.getByTestId('mint-start-now').check();
  await page.getByTestId('mint-permanent').check();
  await expect(page.getByTestId('mint-start-activatesIn')).toBeDisabled();
  await expect(page.getByTestId('mint-start-validAt')).toBeDisabled();
  await page.getByTestId('mint-maxUses').fill('3');
  await page.getByTestId('mint-grant').selectOption('3');
  await console_.screenshot('tokens-mint');

  // At 1024×700 (one column) the mint form keeps its whole height: no small inner scroll area, the
  // stored tokens below it, and Mint token reachable by scrolling the lab as one.
  await page.setViewportSize({ width: 1024, height: 700 });
  const main = page.locator('.lab__main');
  expect(await main.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  const form = await page.getByTestId('mint-form').boundingBox();
  const stored = await page.getByRole('complementary', { name: 'Stored tokens' }).boundingBox();
  expect(form && stored && stored.y >= form.y + form.height).toBe(true);
  await page.getByTestId('mint-submit').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('mint-submit')).toBeInViewport({ ratio: 1 });
  await console_.screenshots('tokens-mint-narrow');
  // The live check uses the service's schema rule: a collection name where a type belongs is flagged.
  await lab.setScope('object.read.accounts');
  await expect(page.getByTestId('mint-chain').first()).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('mint-chain').first()).toContainText('did you mean "account"');
  await expect(page.getByTestId('mint-submit')).toBeDisabled();
  await lab.setScope('*');

  // The minted token appears in a dialog where the user is looking; Escape asks before closing.
  const token = await lab.mintShown();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('dialog-guard')).toBeVisible();
  await expect(page.getByTestId('minted-token')).toHaveValue(token);
  await console_.screenshots('tokens-minted-guard');
  // The dialog's Copy button is as tall as Decode and Verify beside it.
  const copy = await page.getByTestId('minted-copy').boundingBox();
  const decode = await page.getByTestId('minted-decode').boundingBox();
  expect(Math.abs((copy?.height ?? 0) - (decode?.height ?? -9))).toBeLessThanOrEqual(1);
  await page.getByTestId('dialog-guard-stay').click();
  await expect(page.getByTestId('dialog-guard')).toHaveCount(0);
  expect(page.url()).not.toContain(token.slice(-20));
  const claims = jwtPayload(token);
  expect(claims).toMatchObject({ sub: ann.body._id, iss: app.body.key, 'service/cnt': 3, 'service/gnt': 3 });
  expect(claims).not.toHaveProperty('exp');
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(token.slice(-20));
  const jti = String(claims.jti);
  await expect(lab.storedRow(jti)).toBeVisible();
  await expect(lab.storedRow(jti).getByTestId('stored-remaining')).toHaveText('3');

  await page.getByTestId('minted-decode').click();
  await expect(page.getByTestId('minted')).toHaveCount(0);
  await expect(lab.claim('service/cnt')).toContainText('at most 3 times');
  // Decode takes the whole width: no stored-token column beside it.
  await expect(page.getByTestId('stored-tokens')).toHaveCount(0);
  const payloadBox = await page.getByTestId('decode-payload').boundingBox();
  expect(payloadBox?.width ?? 0).toBeGreaterThan(550);
  await console_.screenshots('tokens-decode-wide');
  await expect(lab.claim('service/gnt')).toContainText('level 3 (read)');
  await expect(lab.claim('iat').getByTestId('claim-date')).toBeVisible();
  await expect(lab.claim('exp')).toContainText('permanent');
  await console_.screenshot('tokens-decode');

  await lab.pane('verify');
  await lab.verify();
  await expect(page.getByTestId('verify-report')).toHaveAttribute('data-valid', 'true');
  await expect(lab.check('signature')).toHaveAttribute('data-state', 'pass');
  await expect(lab.check('time')).toHaveAttribute('data-state', 'pass');
  await expect(lab.check('stored')).toContainText('3 uses remaining');
  await lab.tryIt();
  await expect(page.getByTestId('try-result')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('try-account')).toContainText('ann.smith@demo.test');
  await expect(page.getByTestId('try-account')).toContainText(ann.body._id);
  // The stored-token list follows the spent use without a manual refresh.
  await expect(lab.storedRow(jti).getByTestId('stored-remaining')).toHaveText('2');
  await console_.screenshots('tokens-verify-tried');
  await console_.screenshot('tokens-verify');

  // Revoke it in the lab: the API refuses it from then on.
  await lab.storedRow(jti).getByTestId('stored-revoke').click();
  await expect(lab.storedRow(jti)).toHaveCount(0);
  const refused = await bearerGet(service.url, token);
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(String(refused.body.errCode)).toMatch(/^service\.accessDenied\./);
  await lab.tryIt();
  await expect(page.getByTestId('try-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('try-result').getByTestId('fault-errcode')).toHaveText(String(refused.body.errCode));
  await lab.verify();
  await expect(page.getByTestId('verify-report')).toHaveAttribute('data-valid', 'false');
  await expect(lab.check('stored')).toHaveAttribute('data-state', 'fail');

  // Revoke all: two more stored tokens, both refused afterwards.
  await lab.pane('mint');
  const second = await lab.mint();
  const third = await lab.mint();
  await expect(page.getByTestId('stored-row')).toHaveCount(2);
  await page.getByTestId('stored-revoke-all').click();
  await page.getByTestId('stored-revoke-all-confirm').click();
  await expect(page.getByTestId('stored-empty')).toBeVisible();
  for (const t of [second, third]) expect((await bearerGet(service.url, t)).status).toBeGreaterThanOrEqual(400);
});

test('decode explains a pasted token; a tampered token fails verification', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const app = await api.send<{ key: string }>('POST', 'apps', { label: 'Widgets', kind: 'session', expose: true });
  const me = await api.get<{ _id: string }>('accounts/me');
  const minted = await api.send<{ data: string }>('POST', `accounts/${me.body._id}/tokens`, {
    app: app.body.key,
    scope: ['object.read.account'],
    expiresIn: 600,
    activatesIn: 0,
  });
  const token = minted.body.data;

  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/tokens?pane=decode`);
  await console_.login(EMAIL, PASSWORD);
  const lab = new TokensPage(page);
  await page.getByTestId('decode-token').fill('not a token');
  await expect(page.getByTestId('decode-error')).toContainText('three parts');
  await page.getByTestId('decode-token').fill(token);
  await expect(lab.claim('jti')).toContainText('ephemeral');
  await expect(lab.claim('exp')).toContainText('10 min');

  await lab.pane('verify');
  await expect(page.getByTestId('verify-token')).toHaveValue(token);
  await lab.verify();
  await expect(page.getByTestId('verify-report')).toHaveAttribute('data-valid', 'true');
  // Change one character of the payload: the signature no longer matches.
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'ffffffffffffffffffffffff' })).toString('base64url')}.${s}`;
  await page.getByTestId('verify-token').fill(forged);
  await lab.verify();
  await expect(lab.check('signature')).toHaveAttribute('data-state', 'fail');
  await lab.tryIt();
  await expect(page.getByTestId('try-result')).toHaveAttribute('data-ok', 'false');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await console_.screenshot('tokens-verify-dark');
});
