import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import type { ObjectsApi } from '../pages/objects-api';
import { checkerApi } from '../pages/accounts-admin-page';
import { ScopeTesterPage, type RowInput } from '../pages/scope-tester-page';

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

/** What the service answers to a row's request made with a token carrying `scope` (no cookie). */
async function serviceVerdict(api: ObjectsApi, scope: string[], roles: string[], row: RowInput): Promise<string> {
  const minted = await api.send<{ data: string }>('POST', 'accounts/me/tokens', { app: api.key, scope, roles });
  expect(minted.status).toBe(200);
  const collection = row.type === 'account' ? 'accounts' : row.type === 'role' ? 'roles' : `${row.type}s`;
  const path = row.id ? `${collection}/${row.id}` : `${collection}?limit=1`;
  const response = await fetch(`${service.url}/demo/v2/${path}`, {
    method: row.operation === 'update' ? 'PATCH' : 'GET',
    headers: { Authorization: `Bearer ${minted.body.data}`, 'Content-Type': 'application/json' },
    ...(row.operation === 'update' ? { body: '{}' } : {}),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 403 && body.errCode === 'service.accessDenied.scope') return 'denied';
  if (response.status !== 200) return `HTTP ${response.status}`;
  if (row.path) return row.path.split('.')[0]! in body ? 'allowed' : 'denied';
  return 'allowed';
}

test('chain parser: the spec examples parse or fail with the reason at the spot', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const tester = new ScopeTesterPage(page);
  await tester.open();
  await expect(page.getByTestId('chain-empty')).toBeVisible();

  await tester.parse('object.read.account.*.name');
  await expect(tester.segments()).toHaveCount(5);
  await expect(tester.segments().nth(3)).toHaveAttribute('data-role', 'instance');
  await expect(tester.segments().nth(4)).toContainText('property path');
  await expect(page.getByTestId('chain-summary')).toHaveText(
    'Grants read on account (every instance), property name only.',
  );
  expect(decodeURIComponent(page.url())).toContain('chain=object.read.account.*.name');
  await tester.parse('script.execute');
  await expect(tester.segments()).toHaveCount(2);
  await tester.parse('view.execute.c_my_view');
  await expect(tester.segments().last()).toContainText('c_my_view');

  await tester.parse('object.read.account.name');
  await expect(page.getByTestId('chain-error-reason')).toContainText(
    'an identifier or * is required before a property path',
  );
  await expect(page.getByTestId('chain-error-mark')).toHaveText('name');
  await expect(page.getByTestId('chain-error')).toContainText('character 21');
  await tester.screenshot('scope-tester-invalid');

  await tester.parse('deployment.create');
  await expect(page.getByTestId('chain-error-mark')).toHaveText('create');
  await expect(page.getByTestId('chain-error-reason')).toContainText('object.create.deployment');

  // The address keeps the chain: a reload shows the same verdict.
  await page.reload();
  await expect(page.getByTestId('chain-error-mark')).toHaveText('create');
});

test('batch verdicts equal the service answers; test cases save, re-run, export and import', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await checkerApi(service.url, EMAIL, PASSWORD);
  const adminId = (await api.get<{ _id: string }>('accounts/me')).body._id;
  const other = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'other@demo.test',
    password: 'staple horse 42',
    name: { first: 'Ola', last: 'Other' },
  });
  const otherId = other.body._id;
  const role = await api.send<{ _id: string }>('POST', 'roles', {
    name: 'Conversation reader',
    code: 'conversation-reader',
    scopes: ['object.read.c_conversation'],
  });
  expect(role.status).toBe(200);

  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const tester = new ScopeTesterPage(page);
  await tester.open();
  await expect(page.getByTestId('tester-rows-empty')).toBeVisible();
  await expect(page.getByTestId('tester-effective-empty')).toBeVisible();

  const chains = ['object.read.account.*.name', `object.update.account.${otherId}`, 'object.read.role', 'bad.chain'];
  await tester.setChains(chains);
  await expect(page.getByTestId('tester-chain-check-item').last()).toHaveAttribute('data-valid', 'false');
  const rows: RowInput[] = [
    { operation: 'read', type: 'account' },
    { operation: 'read', type: 'account', id: otherId, path: 'name' },
    { operation: 'read', type: 'account', id: otherId, path: 'email' },
    { operation: 'update', type: 'account', id: otherId },
    { operation: 'update', type: 'account', id: adminId },
    { operation: 'read', type: 'role' },
    { operation: 'read', type: 'c_conversation' },
  ];
  for (const row of rows) await tester.addRow(row);
  await tester.addRow({ operation: 'delete', type: 'account', id: otherId });

  const verdicts = await tester.testerVerdicts();
  expect(verdicts).toEqual(['allowed', 'allowed', 'denied', 'allowed', 'denied', 'allowed', 'denied', 'denied']);
  await expect(tester.rows().nth(3).getByTestId('row-chain')).toHaveText(`object.update.account.${otherId}`);

  // The service, asked the same requests with a token carrying the same chains, agrees row by row.
  const fromService = await tester.checkAgainstService();
  expect(fromService.slice(0, 7)).toEqual(verdicts.slice(0, 7));
  expect(fromService[7]).toBe('skipped');
  const validChains = chains.slice(0, 3);
  for (const [index, row] of rows.entries()) {
    expect(await serviceVerdict(api, validChains, [], row), `row ${index + 1}`).toBe(verdicts[index]);
  }
  await tester.screenshot('scope-tester');

  // At 1024×700 the request table fits its panel: no column is cut (the property path column used to
  // be 22 px wide and the service verdict cut to "a…"), and nothing scrolls sideways.
  await page.setViewportSize({ width: 1024, height: 700 });
  const table = page.getByTestId('tester-rows');
  await table.scrollIntoViewIfNeeded();
  const frame = await table.locator('xpath=..').boundingBox();
  const cut = await table.evaluate((el) => {
    const frameEl = el.parentElement as HTMLElement;
    const clipped = [...el.querySelectorAll('th, tbody > tr:first-child > td, .verdict')]
      .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
      .map((cell) => cell.textContent);
    return { clipped, sideways: frameEl.scrollWidth > frameEl.clientWidth };
  });
  expect(cut).toEqual({ clipped: [], sideways: false });
  const answer = await tester.rows().first().getByTestId('row-service').boundingBox();
  expect(frame && answer && answer.x + answer.width <= frame.x + frame.width).toBe(true);
  const pathInput = await tester.rows().first().getByTestId('row-path').boundingBox();
  expect(pathInput?.width ?? 0).toBeGreaterThan(100);
  await console_.screenshots('scope-tester-requests');

  // Roles add their scopes: the conversation read flips, in the tester and in the service.
  await tester.toggleRole('conversation-reader');
  await expect(tester.rows().nth(6).getByTestId('row-verdict')).toHaveAttribute('data-verdict', 'allowed');
  const withRole = await tester.checkAgainstService();
  expect(withRole[6]).toBe('allowed');
  expect(await serviceVerdict(api, validChains, [role.body._id], rows[6]!)).toBe('allowed');

  // Save the case with its current verdicts as expectations; everything passes.
  await page.getByTestId('tester-accept-expected').click();
  await expect(page.getByTestId('row-outcome').first()).toHaveAttribute('data-outcome', 'pass');
  await tester.saveCase('baseline');
  await tester.caseItem('baseline').getByTestId('case-run').click();
  await expect(tester.caseItem('baseline').getByTestId('case-result')).toHaveText('8 pass · 0 fail');
  expect(page.url()).toContain('rows=');

  // The role loses its scope: re-running the saved case shows the regression.
  await api.send('PATCH', `roles/${role.body._id}`, { scopes: [] });
  await page.reload();
  await tester.caseItem('baseline').getByTestId('case-run').click();
  await expect(tester.caseItem('baseline').getByTestId('case-result')).toHaveText('7 pass · 1 fail');

  // Export, delete, import: the case comes back from the file.
  const download = page.waitForEvent('download');
  await page.getByTestId('cases-export').click();
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; cases: { name: string }[] };
  expect(exported.format).toBe('scope-test-cases');
  expect(exported.cases.map((c) => c.name)).toEqual(['baseline']);
  await tester.caseItem('baseline').getByTestId('case-delete').click();
  await expect(page.getByTestId('cases-empty')).toBeVisible();
  await page.getByTestId('cases-import-file').setInputFiles(file);
  await expect(page.getByTestId('cases-message')).toHaveText('Imported 1 test case.');
  await expect(tester.caseItem('baseline')).toBeVisible();

  await page.getByTestId('cases-import-file').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello":1}'),
  });
  await expect(page.getByTestId('cases-message')).toContainText('not a scope test-case file');

  // A pasted token: its service/scp decides, and it never reaches the address bar.
  const minted = await api.send<{ data: string }>('POST', 'accounts/me/tokens', {
    app: api.key,
    scope: ['object.read.role'],
  });
  await page.getByTestId('tester-source-token').click();
  await page.getByTestId('tester-token').fill(minted.body.data);
  await expect(page.getByTestId('tester-token-claims')).toContainText('1 chains');
  expect(await tester.testerVerdicts()).toEqual([
    'denied',
    'denied',
    'denied',
    'denied',
    'denied',
    'allowed',
    'denied',
    'denied',
  ]);
  expect(page.url()).not.toContain(minted.body.data.slice(0, 20));
  const tokenAnswers = await tester.checkAgainstService();
  expect(tokenAnswers.slice(0, 7)).toEqual((await tester.testerVerdicts()).slice(0, 7));

  await page.getByTestId('theme-toggle').click();
  await tester.screenshot('scope-tester-dark');
});
