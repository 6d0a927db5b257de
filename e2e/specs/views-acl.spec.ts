/**
 * Issue #44 item 5 (and the Views list at 1024): a view token is not minted for an account the
 * view's acl refuses — the console says so first and offers to add the account — and the run form
 * starts from the view's defaults and explains each variable from where the view uses it.
 */
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
import { opsAdminApi } from '../pages/ops-admin';
import { ViewsPage } from '../pages/views-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const SUPPORT = '000000000000000000000006';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});

test('the acl is checked before a view token is minted; variables are explained', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await opsAdminApi(service.url, await objectsApi(service.url, EMAIL, PASSWORD));
  const ids: Record<string, string> = {};
  for (const [first, last, roles] of [
    ['Ann', 'Smith', []],
    ['Sam', 'Smithers', [SUPPORT]],
    ['Bob', 'Stone', []],
  ] as const) {
    const created = await api.send<{ _id: string }>('POST', 'accounts', {
      email: `${first.toLowerCase()}@demo.test`,
      password: 'staple horse 42',
      name: { first, last },
      roles,
    });
    expect(created.status).toBe(200);
    ids[first] = created.body._id;
  }
  for (const view of [
    {
      name: 'accounts_by_last',
      sourceObject: 'account',
      query: [{ name: 'where', value: '{"name.last":{"$regex":"{{last_regex}}"}}' }],
      acl: [{ type: 'role', target: 'support' }],
      limit: { settable: true, defaultValue: 25, min: 1, max: 100 },
    },
    {
      name: 'convs_by_status',
      sourceObject: 'c_conversation',
      query: [{ name: 'where', value: '{"c_status":"{{status}}","created":{"$gte":"{{since}}"}}' }],
      acl: [{ type: 'account', target: '*' }],
    },
  ]) {
    const saved = await api.send('POST', 'views', view);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  // The service itself refuses a view token of an account outside the acl: what the console must foresee.
  const outside = await api.send<{ data: string }>('POST', `accounts/${ids.Bob}/tokens`, {
    app: api.key,
    scope: ['view.execute.accounts_by_last'],
  });
  expect(outside.status).toBe(200);
  const refused = await fetch(`${service.url}/demo/v2/views/accounts_by_last?last_regex=/^S/`, {
    headers: { Authorization: `Bearer ${outside.body.data}` },
  });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ errCode: 'service.accessDenied.view' });

  await page.setViewportSize({ width: 1024, height: 700 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('nav-views')).toBeVisible();
  await page.evaluate(() => (window.location.hash = '#/views?name=accounts_by_last'));
  const views = new ViewsPage(page);
  await expect(page.getByTestId('view-runner')).toBeVisible();

  // The list at 1024: the variable stays whole on one line (it broke as "{last_rege" / "x}").
  const lines = await views
    .item('accounts_by_last')
    .getByTestId('view-item-vars')
    .evaluate((code) => {
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf('{last_regex}') ?? -1;
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + '{last_regex}'.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return -1;
    });
  expect(lines).toBe(1);

  // The run form: the limit starts at the view's default; the variable says it wants /^Sm/, not Sm.
  await expect(page.getByTestId('view-run-limit')).toHaveValue('25');
  const variable = page.locator('[data-testid="view-var"][data-name="last_regex"]');
  await expect(variable).toHaveAttribute('data-kind', 'regex');
  await expect(variable).toHaveAttribute('placeholder', 'e.g. /^Sm/');
  const hint = page.locator('[data-testid="view-var-hint"][data-name="last_regex"]');
  await expect(hint).toContainText('/^Sm/');
  await expect(hint).toContainText('plain Sm is refused');
  await expect(variable).toHaveAccessibleDescription(/regular expression/);
  await views.run({ last_regex: '/^Sm/' });
  await expect(views.rows()).toHaveCount(2);
  // The default limit goes without saying in the URL; another one is part of it.
  await expect(page.getByTestId('view-url')).toHaveText(/\?last_regex=%2F%5ESm%2F$/);
  await views.run({ last_regex: '/^Sm/' }, 1);
  await expect(views.rows()).toHaveCount(1);
  await expect(page.getByTestId('view-url')).toHaveText(/\?last_regex=%2F%5ESm%2F&limit=1$/);
  await page.getByTestId('view-run-limit').fill('25');

  // Another view explains its own variables from the definition: an enum, a date.
  await views.select('convs_by_status');
  await expect(page.locator('[data-testid="view-var"][data-name="status"]')).toHaveAttribute('data-kind', 'choice');
  await expect(page.locator('[data-testid="view-var-hint"][data-name="status"]')).toContainText(
    'One of: open, closed.',
  );
  await expect(page.locator('[data-testid="view-var"][data-name="since"]')).toHaveAttribute('data-kind', 'date');
  await console_.screenshots('views-run-hints-conversations');
  // Coming back, the value typed before is still there.
  await views.select('accounts_by_last');
  await expect(variable).toHaveValue('/^Sm/');
  await console_.screenshots('views-run-hints');

  // The token panel checks the account against the acl before minting.
  const panel = page.getByTestId('view-token-panel');
  const verdict = panel.getByTestId('view-token-acl');
  // The signed-in administrator runs every view.
  await expect(verdict).toHaveAttribute('data-allowed', 'true');
  await expect(verdict).toContainText('org administrator');
  const box = panel.getByTestId('view-token-account');
  await box.fill('ann');
  await expect(panel.getByTestId('view-token-account-option')).toHaveCount(1);
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(verdict).toHaveAttribute('data-allowed', 'false');
  await expect(verdict).toContainText('403');
  await expect(verdict).toContainText('the role Support');
  await expect(panel.getByTestId('view-token-mint')).toBeDisabled();
  await panel.scrollIntoViewIfNeeded();
  await console_.screenshots('views-token-refused');

  // Offered fix: the account joins the acl, and the token it then gets runs the view.
  await panel.getByTestId('view-token-acl-add').click();
  await expect(verdict).toHaveAttribute('data-allowed', 'true');
  await expect(verdict).toContainText('the account');
  const stored = await api.get<{ data: { name: string; acl: { type: string; target: string }[] }[] }>('views');
  expect(stored.body.data.find((v) => v.name === 'accounts_by_last')?.acl).toEqual([
    { type: 'role', target: 'support' },
    { type: 'account', target: ids.Ann },
  ]);
  await console_.screenshots('views-token-allowed');
  const token = await views.mintToken();
  await views.closeTokenDialog();
  const answered = await fetch(`${service.url}/demo/v2/views/accounts_by_last?last_regex=/^Sm/`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answered.status).toBe(200);

  // A member of the role the acl names is let in through that role.
  await box.fill('sam');
  await expect(panel.getByTestId('view-token-account-option')).toHaveCount(1);
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(verdict).toHaveAttribute('data-allowed', 'true');
  await expect(verdict).toContainText('the role Support');
  await expect(panel.getByTestId('view-token-mint')).toBeEnabled();
});
