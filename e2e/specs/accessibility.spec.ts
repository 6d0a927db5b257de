/**
 * Issue #18 item 15: axe-core over every console screen (the registry in
 * src-renderer/app/screens.tsx, plus first run, login and the record drawer and editor), with data,
 * in both themes. The theme comes from the system preference (`colorScheme` of a fresh context, no
 * saved choice), the way a first-time user gets it. Any violation of impact "serious" or
 * "critical" fails, listed as rule, target, screen and theme.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const SUPPORT = '000000000000000000000006';
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

interface Finding {
  rule: string;
  impact: string;
  target: string;
  screen: string;
  theme: Theme;
  summary: string;
}

let service: HeadlessService;
let fresh: HeadlessService;
let roleId = '';
let memberId = '';
let conversationId = '';

test.setTimeout(600_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  // A second service with no org yet: the first-run screen.
  fresh = await startHeadlessService();
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 12);
  const role = await api.send<{ _id: string }>('POST', 'roles', {
    name: 'Auditor',
    code: 'auditor',
    scopes: ['object.read.account.*.email'],
    include: [SUPPORT],
  });
  roleId = role.body._id;
  const member = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'audrey@demo.test',
    password: 'audrey password 1',
    name: { first: 'Audrey', last: 'Hale' },
    roles: [roleId],
  });
  memberId = member.body._id;
  const conversation = await api.send<{ _id: string }>('POST', 'c_conversations', {
    c_title: 'Kick-off',
    c_status: 'open',
  });
  conversationId = conversation.body._id;
  expect([role.status, member.status, conversation.status]).toEqual([200, 200, 200]);
});

test.afterAll(async () => {
  await service?.stop();
  await fresh?.stop();
});

/** Runs axe on the page as it is and keeps the serious and critical violations. */
async function audit(page: Page, screen: string, theme: Theme, findings: Finding[]): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  const result = await new AxeBuilder({ page }).analyze();
  for (const violation of result.violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
    for (const node of violation.nodes) {
      findings.push({
        rule: violation.id,
        impact: violation.impact,
        target: node.target.join(' '),
        screen,
        theme,
        summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240),
      });
    }
  }
}

/** Moves to a hash route and waits until the screen has loaded (its title shown, no spinner left). */
async function visit(page: Page, hash: string, title: string | RegExp): Promise<void> {
  await page.evaluate((next) => (window.location.hash = next), hash);
  await expect(page.locator('h1.screen__title')).toHaveText(title);
  await expect(page.locator('.spinner')).toHaveCount(0);
}

async function newPage(browser: Browser, theme: Theme): Promise<Page> {
  const context = await browser.newContext({ colorScheme: theme, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

/** One line per rule and target, naming every screen it was found on. */
function report(findings: Finding[]): string {
  const grouped = new Map<string, { first: Finding; screens: string[] }>();
  for (const f of findings) {
    const key = `${f.rule}\u0000${f.target}`;
    const entry = grouped.get(key) ?? { first: f, screens: [] };
    entry.screens.push(f.screen);
    grouped.set(key, entry);
  }
  return [...grouped.values()]
    .map(
      ({ first: f, screens }) =>
        `- ${f.rule} (${f.impact}) at ${f.target} · ${f.theme} theme · screens: ${[...new Set(screens)].join(', ')}\n    ${f.summary}`,
    )
    .join('\n');
}

for (const theme of THEMES) {
  test(`no serious or critical axe violations on any screen, ${theme} theme`, async ({ browser }) => {
    const findings: Finding[] = [];

    // Before sign-in: first run, then login.
    const setupPage = await newPage(browser, theme);
    await setupPage.goto(fresh.consoleUrl);
    await expect(setupPage.getByTestId('setup-form')).toBeVisible();
    await audit(setupPage, 'first run', theme, findings);
    await setupPage.context().close();

    const page = await newPage(browser, theme);
    const console_ = new ConsolePage(page);
    await console_.open(service.consoleUrl);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await audit(page, 'login', theme, findings);
    await console_.login(EMAIL, PASSWORD);
    await expect(console_.rows().first()).toBeVisible();

    const screens: [name: string, hash: string, title: string | RegExp][] = [
      ['accounts', '#/accounts', 'Accounts'],
      ['browse (no collection)', '#/browse', 'Browse'],
      ['browse accounts', '#/browse?c=accounts&limit=25', 'Browse'],
      ['browse conversations as JSON', '#/browse?c=c_conversations&view=json', 'Browse'],
      ['views', '#/views', 'Views'],
      ['schemas: account', '#/schemas?name=account', 'Schemas'],
      ['scripts', '#/scripts', 'Scripts'],
      ['logs', '#/logs', 'Logs'],
      ['audit', '#/audit', 'Audit'],
      ['configuration: export', '#/configuration', 'Configuration'],
      ['configuration: import', '#/configuration?tab=import', 'Configuration'],
      ['configuration: deployments', '#/configuration?tab=deployments', 'Configuration'],
      ['demo data', '#/demo-data', 'Demo data'],
      ['applications: settings', '#/apps', 'Applications'],
      ['applications: keys', '#/apps?tab=keys', 'Applications'],
      ['applications: tokens', '#/apps?tab=tokens', 'Applications'],
      ['applications: sessions', '#/apps?tab=sessions', 'Applications'],
      ['token lab: mint', `#/tokens?pane=mint&account=${memberId}`, 'Token lab'],
      ['token lab: decode', '#/tokens?pane=decode', 'Token lab'],
      ['token lab: verify', '#/tokens?pane=verify', 'Token lab'],
      ['outbox & sessions', '#/outbox', /Outbox/],
      ['manage accounts: one open', `#/accounts-admin?id=${memberId}`, 'Manage accounts'],
      ['roles: one open', `#/roles?id=${roleId}`, 'Roles'],
      ['scope tester', '#/scope-tester?chain=object.read.account.*.email', 'Scope tester'],
      ['signed requests', '#/signed-requests', 'Signed requests'],
    ];
    for (const [name, hash, title] of screens) {
      await visit(page, hash, title);
      await audit(page, name, theme, findings);
    }

    // The API reference: the console's frame and, inside it, the renderer's page once it has
    // rendered (axe audits same-origin frames too).
    await visit(page, '#/api-reference', 'API reference');
    await expect(
      page.frameLocator('[data-testid=api-reference-frame]').getByRole('heading', { name: 'Typed-object service' }),
    ).toBeVisible();
    await audit(page, 'api reference', theme, findings);

    // The record drawer over the grid, and the record editor (a modal form).
    await visit(page, `#/browse?c=c_conversations&record=${conversationId}`, 'Browse');
    await expect(page.getByTestId('record-drawer')).toBeVisible();
    await expect(page.getByTestId('record-json')).toContainText('Kick-off');
    await audit(page, 'record drawer', theme, findings);
    await visit(page, `#/browse?c=accounts&record=${memberId}`, 'Browse');
    await expect(page.getByTestId('record-json')).toContainText('audrey@demo.test');
    await audit(page, 'record drawer (account)', theme, findings);
    await visit(page, '#/browse?c=c_conversations', 'Browse');
    await page.getByTestId('record-new').click();
    await expect(page.getByTestId('record-editor')).toBeVisible();
    await audit(page, 'record editor', theme, findings);
    await page.keyboard.press('Escape');

    // Browse's aggregation mode (issue 42): stage cards with previews, the result as a bar chart
    // with its data table, a line chart, and the pipeline as JSON.
    const perLocale = encodeURIComponent('[{"$group":{"_id":"locale","count":{"$sum":1}}},{"$sort":{"count":-1}}]');
    await visit(page, `#/browse?c=accounts&mode=agg&pipeline=${perLocale}`, 'Browse');
    await expect(page.getByTestId('agg-chart')).toHaveAttribute('data-kind', 'bar');
    await expect(page.getByTestId('agg-stage-preview-count')).toHaveCount(2);
    await page.getByTestId('agg-chart-table-toggle').click();
    await expect(page.getByTestId('agg-chart-table')).toBeVisible();
    await audit(page, 'browse aggregation: stages and bar chart', theme, findings);
    const perMonth = encodeURIComponent(
      '[{"$group":{"_id":{"$dateToString":{"format":"%Y-%m","date":"created"}},"count":{"$sum":1}}}]',
    );
    await visit(page, `#/browse?c=accounts&mode=agg&pipeline=${perMonth}`, 'Browse');
    await expect(page.getByTestId('agg-chart')).toHaveAttribute('data-kind', 'line');
    await audit(page, 'browse aggregation: line chart', theme, findings);
    await page.getByTestId('agg-tab-json').click();
    await expect(page.getByTestId('agg-json')).toBeVisible();
    await audit(page, 'browse aggregation: pipeline as JSON', theme, findings);

    await page.context().close();
    expect(findings.length, `axe found serious or critical violations:\n${report(findings)}`).toBe(0);
  });
}
