import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { ScopeTesterPage } from '../pages/scope-tester-page';
import { ScriptsPage } from '../pages/scripts-page';
import { TokensPage } from '../pages/tokens-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

const FAILING = `const a = 1;
const b = a + 1;
throw new Error('boom at ' + b);
`;

test('write and run a script, see a fault at its line, cancel, save as a route and try it', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const scripts = new ScriptsPage(page);
  await scripts.open();
  await expect(page.getByTestId('library-empty')).toBeVisible();
  await expect(scripts.output()).toHaveAttribute('data-state', 'idle');

  // Invalid JSON arguments block the run.
  await scripts.setArguments('{a: 1}');
  await expect(page.getByTestId('arguments-error')).toBeVisible();
  await expect(page.getByTestId('run-submit')).toBeDisabled();

  // Write, run with Ctrl/Cmd+Enter, see the result and the stats.
  await scripts.write("console.log('adding');\nreturn { sum: script.arguments.a + 1, org: script.org.code };");
  await scripts.setArguments('{"a": 41}');
  await scripts.runWithKeyboard();
  await expect(page.getByTestId('run-state')).toHaveText('Succeeded');
  await expect(scripts.result()).toContainText('"sum": 42');
  await expect(scripts.result()).toContainText('"org": "demo"');
  await expect(page.getByTestId('run-stats')).toContainText('Elapsed');
  await scripts.screenshot('scripts-result-1440-light');

  // A failing script: the fault, its trace, and the line marked in the editor.
  await scripts.write(FAILING);
  await scripts.run();
  await expect(page.getByTestId('run-state')).toHaveText('Failed');
  await expect(page.getByTestId('run-fault')).toContainText('boom at 2');
  // A script error is the script failing, not the service: no "unexpected error", a 400-class fault.
  await expect(page.getByTestId('run-fault')).toContainText('The script threw an error.');
  await expect(page.getByTestId('run-fault')).not.toContainText('unexpected error');
  await expect(page.getByTestId('fault-errcode')).toHaveText('service.invalidArgument.script');
  await expect(page.getByTestId('run-trace')).toContainText('Error: boom at 2');
  await expect(scripts.traceLine(3)).toBeVisible();
  await expect(scripts.errorLine()).toHaveCount(1);
  await expect(scripts.errorLine()).toContainText("throw new Error('boom at ' + b);");
  // Clicking the trace line moves the cursor there.
  await scripts.editor().click();
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(scripts.activeLine()).toContainText('const a = 1;');
  await scripts.traceLine(3).click();
  await expect(scripts.activeLine()).toContainText('throw new Error');
  await scripts.screenshot('scripts-fault-1440-light');
  await page.getByTestId('theme-toggle').click();
  await scripts.screenshot('scripts-fault-1440-dark');
  await page.getByTestId('theme-toggle').click();

  // A runaway script is cancelled: the console returns to idle and says so.
  await scripts.write('while (true) {}');
  await page.getByTestId('run-submit').click();
  await expect(page.getByTestId('run-cancel')).toBeVisible();
  await page.getByTestId('run-cancel').click();
  await expect(page.getByTestId('run-cancelled')).toBeVisible();
  await expect(page.getByTestId('run-submit')).toBeEnabled();

  // The session's history reopens a past run.
  await expect(page.getByTestId('history-item')).toHaveCount(3);
  await page.getByTestId('history-item').nth(2).click();
  await expect(scripts.result()).toContainText('"sum": 42');
  await expect(scripts.editor()).toContainText("console.log('adding');");

  // Save as a route script; its URL is shown and "try it" calls it.
  await scripts.write("const req = require('request');\nreturn { hello: 'route', method: req.method };");
  await scripts.saveAs({ type: 'route', name: 'c_hello', method: 'get', path: 'hello' });
  await expect(page.getByTestId('route-url')).toContainText('/demo/v2/routes/hello');
  await expect(scripts.libraryItem('c_hello')).toBeVisible();
  expect(page.url()).toMatch(/#\/scripts\?id=[0-9a-f]{24}/);
  await page.getByTestId('route-try').click();
  await expect(page.getByTestId('route-answer')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('route-answer')).toContainText('"hello": "route"');
  await scripts.screenshot('scripts-route-1440-light');

  // The library reopens the script after a reload (the id is in the URL).
  await page.reload();
  await expect(scripts.editor()).toContainText("return { hello: 'route'", { timeout: 20_000 });
  await expect(page.getByTestId('route-url')).toBeVisible();

  // Smaller window, both themes.
  await page.setViewportSize({ width: 1024, height: 700 });
  await scripts.write(FAILING);
  await scripts.run();
  await scripts.screenshot('scripts-fault-1024-light');
  await page.getByTestId('theme-toggle').click();
  await scripts.screenshot('scripts-fault-1024-dark');
  await page.getByTestId('script-new').click();
  await scripts.runWithKeyboard();
  await scripts.screenshot('scripts-result-1024-dark');
  await page.setViewportSize({ width: 1440, height: 900 });
  await scripts.screenshot('scripts-result-1440-dark');
});

test('Token lab mints through a script and decodes the claims (service/eml, iss = app key)', async ({ page }) => {
  test.setTimeout(120_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const app = await api.send<{ key: string }>('POST', 'apps', { label: 'Script API', kind: 'signing', expose: true });
  const ann = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'ann.script@demo.test',
    password: 'quite a long pass phrase 7',
    name: { first: 'Ann', last: 'Script' },
  });
  expect(ann.status, JSON.stringify(ann.body)).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const lab = new TokensPage(page);
  await lab.open();
  await lab.pickAccount('ann.scr');
  await lab.pickApp('Script API');
  await lab.setScope('*');
  await page.getByTestId('script-mint-submit').click();
  const mint = page.getByTestId('script-mint');
  await expect(mint.getByTestId('decode-pane')).toBeVisible();
  await expect(mint.locator('[data-testid="claim-row"][data-claim="service/eml"]')).toContainText(
    'ann.script@demo.test',
  );
  await expect(mint.locator('[data-testid="claim-row"][data-claim="iss"]')).toContainText(app.body.key);
  await expect(mint.locator('[data-testid="claim-row"][data-claim="sub"]')).toContainText(ann.body._id);
  await mint.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/scripts-token-lab-1440-light.png' });
});

test('the scope tester parses script chains and decides script executions', async ({ page }) => {
  test.setTimeout(120_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const tester = new ScopeTesterPage(page);
  await tester.open();
  await tester.parse('script.*');
  await expect(page.getByTestId('chain-valid')).toHaveAttribute('data-kind', 'script');
  await expect(page.getByTestId('chain-summary')).toContainText('script execution');
  await tester.parse('script.*.route');
  await expect(page.getByTestId('chain-error')).toContainText('nothing may follow');
  await tester.parse('script.execute.route.c_hello');
  await expect(page.getByTestId('chain-summary')).toContainText('c_hello');

  await tester.setChains(['script.execute.route.c_hello']);
  await tester.addRow({ operation: 'execute', type: 'route', id: 'c_hello' });
  await tester.addRow({ operation: 'execute', type: 'route', id: 'c_other' });
  await tester.addRow({ operation: 'execute', type: 'runner' });
  await expect.poll(() => tester.testerVerdicts()).toEqual(['allowed', 'denied', 'denied']);
  await tester.setChains(['script.*']);
  await expect.poll(() => tester.testerVerdicts()).toEqual(['allowed', 'allowed', 'allowed']);
  await tester.screenshot('scripts-scope-tester-1440-light');
});
