import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
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
  // The editor holds unsaved text (a new script): replacing it with the run's script is asked first.
  await scripts.answer(true);
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

test('console output shows beside a returned object (issue 44 item 4)', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const scripts = new ScriptsPage(page);
  await scripts.open();
  await scripts.write("console.log('counted', 3);\nconsole.warn('careful');\nreturn { total: 3, ok: true };");
  await scripts.run();
  await expect(page.getByTestId('run-state')).toHaveText('Succeeded');
  await expect(page.getByTestId('run-console')).toContainText('counted 3');
  await expect(page.getByTestId('run-console')).toContainText('[warn] careful');
  // The value is the script's object, not the envelope the console asked for to carry the logs.
  await expect(scripts.result()).toContainText('"total": 3');
  await expect(scripts.result()).not.toContainText('"object"');
  // A failing script's trace names its own lines only, not the wrapper's.
  await scripts.write("console.log('before');\nthrow new Error('late');");
  await scripts.run();
  await expect(page.getByTestId('run-console')).toContainText('before');
  await expect(page.getByTestId('trace-line')).toHaveCount(1);
  await expect(scripts.traceLine(2)).toBeVisible();
  await scripts.write("console.log('listed');\nreturn [1, 2];");
  await scripts.run();
  await expect(page.getByTestId('run-console')).toContainText('listed');
  await scripts.write("console.log('object again');\nreturn { hello: 'console' };");
  await scripts.run();
  await console_.screenshots('scripts-console-object');
});

test('unsaved script text survives navigation, reload and a lost session, and is discarded only when asked (issue 44 item 1)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const scripts = new ScriptsPage(page);
  await scripts.open();
  await expect(scripts.dirty()).toHaveCount(0);

  // The new script: typed, then away to another screen and back, then a reload.
  await scripts.write("return 'draft one';");
  await expect(scripts.dirty()).toContainText('Unsaved changes');
  await expect(scripts.newItem()).toHaveAttribute('data-draft', 'true');
  await page.getByTestId('nav-browse').click();
  await expect(page.getByTestId('collection-picker')).toBeVisible();
  await scripts.open();
  await expect(scripts.editor()).toHaveText("return 'draft one';");
  await expect(scripts.dirty()).toContainText('draft restored');
  await page.reload();
  await expect(scripts.editor()).toHaveText("return 'draft one';");

  // Saved: no draft left, the state says "Saved".
  await scripts.saveAs({ type: 'library', name: 'c_lib' });
  await expect(scripts.saveState()).toHaveText('Saved');
  await expect(scripts.dirty()).toHaveCount(0);
  await expect(scripts.libraryItem('c_lib')).not.toHaveAttribute('data-draft', /.*/);
  await expect(scripts.newItem()).toHaveCount(0);

  // An edit is unsaved: the heading's state and the library say so, "Saved." is gone.
  await scripts.write("return 'edited, not saved';");
  await expect(scripts.saveState()).toHaveText('Unsaved changes');
  await expect(page.getByTestId('save-done')).toHaveCount(0);
  await expect(scripts.libraryItem('c_lib')).toHaveAttribute('data-draft', 'true');
  await page.getByTestId('run-submit').scrollIntoViewIfNeeded();
  await expect(scripts.dirty()).toBeInViewport();
  await console_.screenshots('scripts-draft');

  // The session ends (the account signs in elsewhere); the next request finds it gone.
  await objectsApi(service.url, EMAIL, PASSWORD);
  await page.getByTestId('run-submit').click();
  await expect(page.getByTestId('login-form')).toBeVisible();
  await console_.login(EMAIL, PASSWORD);
  await expect(scripts.editor()).toHaveText("return 'edited, not saved';", { timeout: 20_000 });
  await expect(scripts.libraryItem('c_lib')).toHaveAttribute('data-draft', 'true');

  // Another run's script would replace the unsaved text: asked first, and "keep editing" keeps it.
  await scripts.write("return 'a run';");
  await scripts.run();
  await scripts.write("return 'newer text';");
  await page.getByTestId('history-item').first().click();
  await scripts.answer(false);
  await expect(scripts.editor()).toHaveText("return 'newer text';");

  // Discarding asks; confirmed, the editor is the saved script again and the draft is gone.
  await page.getByTestId('script-discard').click();
  await scripts.answer(false);
  await expect(scripts.editor()).toHaveText("return 'newer text';");
  await page.getByTestId('script-discard').click();
  await scripts.answer(true);
  await expect(scripts.editor()).toHaveText("return 'draft one';");
  await expect(scripts.saveState()).toHaveText('Saved');
  await expect(scripts.libraryItem('c_lib')).not.toHaveAttribute('data-draft', /.*/);

  // "New" with an unsaved new script asks before starting anew.
  await page.getByTestId('script-new').click();
  await scripts.write("return 'second new';");
  await page.getByTestId('script-new').click();
  await scripts.answer(false);
  await expect(scripts.editor()).toHaveText("return 'second new';");

  // Leaving the page with unsaved text asks too (beforeunload).
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => resolve(d.type())));
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});

test('a route script keeps every setting the API accepts, picked not typed (issue 44 item 8)', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const app = await api.send<{ key: string }>('POST', 'apps', { label: 'Partner API', kind: 'signing' });
  const ann = await api.send<{ _id: string }>('POST', 'accounts', {
    email: 'ann.route@demo.test',
    password: 'quite a long pass phrase 7',
    name: { first: 'Ann', last: 'Route' },
  });
  await api.send('POST', 'accounts', {
    email: 'bob.route@demo.test',
    password: 'quite a long pass phrase 7',
    name: { first: 'Bob', last: 'Route' },
  });
  expect(ann.status, JSON.stringify(ann.body)).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const scripts = new ScriptsPage(page);
  await scripts.open();
  await scripts.write('return { who: script.principal.email };');
  await page.getByTestId('save-type').selectOption('route');
  await page.getByTestId('save-name').fill('c_partner');
  await page.getByTestId('save-label').fill('Partner hello');
  await page.getByTestId('save-description').fill('Answers partners');
  await page.getByTestId('save-method').selectOption('post');
  await page.getByTestId('save-path').fill('partner/hello');
  await page.getByTestId('save-priority').fill('5');
  await page.getByTestId('save-weight').fill('2');
  await page.getByTestId('save-auth').selectOption('all');
  await page.getByTestId('save-app').selectOption(app.body.key);
  // The principal is picked from the org's accounts with the keyboard.
  await scripts.pickAccount('save-principal', 'route', 'bob.route@demo.test');
  await expect(page.getByTestId('save-principal')).toHaveValue('bob.route@demo.test');
  // acl: anonymous, a role, and an account found by name.
  await page.getByTestId('route-acl-add').selectOption('anonymous');
  await page.getByTestId('route-acl-add').selectOption({ label: 'role: Developer' });
  await page.getByTestId('route-acl-add').selectOption('account');
  await scripts.pickAccount('route-acl-account', 'Ann', 'ann.route@demo.test');
  await expect(page.getByTestId('route-acl-entry')).toHaveCount(3);
  await expect(page.getByTestId('route-acl')).toContainText('Holders of the role Developer');
  await expect(page.getByTestId('route-acl')).toContainText('The account Ann Route <ann.route@demo.test>');
  await expect(scripts.saveState()).toHaveText('Not saved yet');
  await page.getByTestId('save-submit').click();
  await expect(page.getByTestId('save-done')).toBeVisible();
  await expect(scripts.saveState()).toHaveText('Saved');
  await expect(page.getByTestId('save-title')).toHaveText('Route script “Partner hello”');
  await console_.screenshots('scripts-route-settings');

  // "Run as" picks an account the same way; the run answers as that account.
  await scripts.pickAccount('script-principal', 'Bob', 'bob.route@demo.test');
  await scripts.run();
  await expect(scripts.result()).toContainText('"who": "bob.route@demo.test"');

  // What the service stored is what was chosen.
  const id = /id=([0-9a-f]{24})/.exec(page.url())?.[1] ?? '';
  const stored = await api.get<Record<string, unknown>>(`scripts/${id}`);
  expect(stored.body).toMatchObject({
    name: 'c_partner',
    label: 'Partner hello',
    description: 'Answers partners',
    active: true,
    weight: 2,
    configuration: {
      method: 'post',
      path: 'partner/hello',
      priority: 5,
      authValidation: 'all',
      apiKey: app.body.key,
      principal: 'bob.route@demo.test',
      acl: ['anonymous', 'role.000000000000000000000007', `account.${ann.body._id}`],
    },
  });

  // Reopened after a reload, the form shows the stored settings; a change is "unsaved", not "Saved".
  await page.reload();
  await expect(page.getByTestId('save-priority')).toHaveValue('5');
  await expect(page.getByTestId('save-app')).toHaveValue(app.body.key);
  await expect(page.getByTestId('route-acl-entry')).toHaveCount(3);
  await page.getByTestId('save-priority').fill('6');
  await expect(scripts.saveState()).toHaveText('Unsaved changes');
  await expect(page.getByTestId('save-done')).toHaveCount(0);
  // Cleared settings are cleared on the service too.
  await page.getByTestId('save-weight').fill('');
  await page.getByTestId('save-principal').fill('');
  await page.getByTestId('route-acl-entry').first().getByRole('button').click();
  await page.getByTestId('save-submit').click();
  await expect(scripts.saveState()).toHaveText('Saved');
  const cleared = await api.get<{ weight?: number; configuration: Record<string, unknown> }>(`scripts/${id}`);
  expect(cleared.body.weight).toBeUndefined();
  expect(cleared.body.configuration.principal).toBeUndefined();
  expect(cleared.body.configuration.priority).toBe(6);
  expect(cleared.body.configuration.acl).toEqual(['role.000000000000000000000007', `account.${ann.body._id}`]);
});
