import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConfigurationPage } from '../pages/configuration-page';
import { ConsolePage } from '../pages/console-page';
import { objectsApi, type ObjectsApi } from '../pages/objects-api';
import { opsAdminApi } from '../pages/ops-admin';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

async function roleCodes(api: ObjectsApi): Promise<string[]> {
  const res = await api.get<{ data: { code?: string }[] }>('roles?limit=100');
  return res.body.data.map((r) => r.code ?? '');
}

test('export with a manifest, import into another org with a dry-run diff, apply; deployments preview and run', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const demo = await opsAdminApi(service.url, await objectsApi(service.url, EMAIL, PASSWORD));
  const staging = await demo.send('POST', 'developer/orgs', {
    code: 'staging',
    name: 'Staging',
    adminEmail: EMAIL,
    adminPassword: PASSWORD,
  });
  expect(staging.status, JSON.stringify(staging.body)).toBe(200);
  const stagingApi = await opsAdminApi(
    service.url,
    await objectsApi(service.url, EMAIL, PASSWORD, 'staging'),
    'staging',
  );
  // Configuration of demo: two roles and a view; staging has a differently configured "reader".
  for (const role of [
    { name: 'Reader', code: 'reader', scopes: ['object.read.c_conversation'] },
    { name: 'Analyst', code: 'analyst', scopes: ['view.execute'] },
  ]) {
    expect((await demo.send('POST', 'roles', role)).status).toBe(200);
  }
  expect(
    (await stagingApi.send('POST', 'roles', { name: 'Reader (old)', code: 'reader', scopes: ['object.read'] })).status,
  ).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const config = new ConfigurationPage(page);
  await config.open();

  // The manifest editor: roles only, two of them by name; the JSON follows the choices live.
  for (const section of ['objects', 'apps', 'views', 'scripts', 'settings', 'configs', 'policies'])
    await config.setSection(section, false);
  await config.setSection('roles', true, 'reader, analyst');
  expect(await config.manifest()).toEqual({ roles: { includes: ['reader', 'analyst'] } });
  const file = await config.exportAndDownload();
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { object: string; resource?: string });
  expect(
    lines
      .filter((l) => l.resource)
      .map((l) => l.resource)
      .sort(),
  ).toEqual(['role.analyst', 'role.reader']);
  expect(lines.at(-1)!.object).toBe('manifest-exports');
  await config.screenshot('configuration-export-1440-light');

  // At 1024×700 the export result (below the manifest JSON) is brought into view when it arrives,
  // and the names fields show their whole placeholder.
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByTestId('export-run').scrollIntoViewIfNeeded();
  await page.getByTestId('export-run').click();
  await expect(page.getByTestId('export-summary')).toBeInViewport();
  await expect(page.getByTestId('export-download')).toBeInViewport({ ratio: 1 });
  const placeholdersFit = await page.getByTestId('manifest-section-names').evaluateAll((inputs) =>
    (inputs as HTMLInputElement[]).every((input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= room;
    }),
  );
  expect(placeholdersFit).toBe(true);
  await config.screenshot('configuration-export-1024-light');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('theme-toggle').click();
  await config.screenshot('configuration-export-1440-dark');
  await page.getByTestId('theme-toggle').click();

  // Into staging (the org picker lists both orgs of the data folder), as a gzip file.
  const gz = testInfo.outputPath('demo-roles.ndjson.gz');
  writeFileSync(gz, gzipSync(readFileSync(file)));
  // An org created while the console is open is listed once the picker shows again.
  const qa = await demo.send('POST', 'developer/orgs', {
    code: 'qa',
    name: 'QA',
    adminEmail: EMAIL,
    adminPassword: PASSWORD,
  });
  expect(qa.status, JSON.stringify(qa.body)).toBe(200);
  await console_.logout();
  await expect(config.orgPicker().locator('option')).toHaveText(['demo (demo)', 'Staging (staging)', 'QA (qa)']);
  await config.orgPicker().selectOption('staging');
  await console_.login(EMAIL, PASSWORD);
  await config.open();
  await config.tab('import');
  await config.pickImportFile(gz);
  expect(await config.count('added')).toBe(1);
  expect(await config.count('changed')).toBe(1);
  await expect(config.changeItem('role.analyst')).toHaveAttribute('data-change', 'added');
  await expect(config.changeItem('role.reader')).toHaveAttribute('data-change', 'changed');
  await config.changeItem('role.reader').click();
  const diff = page.getByTestId('json-diff');
  await expect(diff.locator('td.json-diff--removed')).toContainText(['"name": "Reader (old)",']);
  await expect(diff.locator('td.json-diff--added')).toContainText(['"name": "Reader",']);
  await config.screenshot('configuration-import-diff-1440-light');
  await page.getByTestId('theme-toggle').click();
  await config.screenshot('configuration-import-diff-1440-dark');
  await page.getByTestId('theme-toggle').click();
  // The dry run wrote nothing.
  expect(await roleCodes(stagingApi)).not.toContain('analyst');

  // The imported records' triggers run only when asked (here: asked, with none to run).
  await expect(page.getByTestId('import-triggers')).not.toBeChecked();
  await page.getByTestId('import-triggers').check();
  await config.apply();
  await expect(page.locator('[data-testid="import-stage"][data-stage="complete"]')).toHaveAttribute(
    'data-done',
    'true',
  );
  expect(await roleCodes(stagingApi)).toContain('analyst');
  const reader = await stagingApi.get<{ data: { name: string; scopes: string[] }[] }>(
    `roles?where=${encodeURIComponent('{"code":"reader"}')}`,
  );
  expect(reader.body.data[0]).toMatchObject({ name: 'Reader', scopes: ['object.read.c_conversation'] });
  await config.screenshot('configuration-import-applied-1440-light');

  // Importing the same file again: nothing would change.
  await config.pickImportFile(file);
  expect(await config.count('unchanged')).toBe(2);
  expect((await config.count('added')) + (await config.count('changed'))).toBe(0);

  // Deployments (from demo): create one to staging, preview its diff, run it, read the log.
  // staging lets it in only with a credential it issued: a token its administrator mints there.
  const stagingAdminId = (await stagingApi.get<{ _id: string }>('accounts/me')).body._id;
  const minted = await stagingApi.send<{ data: string }>('POST', `accounts/${stagingAdminId}/tokens`, {
    app: stagingApi.key,
    scope: ['deployment.execute'],
    permanent: true,
  });
  expect(minted.status, JSON.stringify(minted.body)).toBe(200);
  await console_.logout();
  await config.orgPicker().selectOption('demo');
  await console_.login(EMAIL, PASSWORD);
  expect((await demo.send('POST', 'roles', { name: 'Auditor', code: 'auditor', scopes: ['object.read'] })).status).toBe(
    200,
  );
  // analyst differs from staging's copy once changed here: the preview must show that diff.
  const analyst = await demo.get<{ data: { _id: string }[] }>(
    `roles?where=${encodeURIComponent('{"code":"analyst"}')}`,
  );
  expect((await demo.send('PATCH', `roles/${analyst.body.data[0]!._id}`, { name: 'Analyst (v2)' })).status).toBe(200);
  await config.open();
  await config.tab('deployments');
  await expect(page.getByTestId('deployments-empty')).toBeVisible();
  await page.getByTestId('deployment-new').click();
  await page.getByTestId('deployment-name').fill('roles_to_staging');
  await page.getByTestId('deployment-target-org').selectOption('staging');
  // The form asks for staging's credential and says, in plain words, how to get one.
  const help = page.getByTestId('deployment-target-credential').getByTestId('deployment-credential-help');
  await expect(help).toContainText('Token lab');
  await expect(help).toContainText('deployment.execute');
  await page.getByTestId('deployment-manifest').fill('{"roles": {"includes": ["auditor", "reader", "analyst"]}}');
  // Without the credential the service refuses it, naming the field.
  await page.getByTestId('deployment-create').click();
  await expect(page.getByTestId('deployment-form')).toContainText('needs a credential that staging issued');
  await page.getByTestId('deployment-target-token').fill(minted.body.data);
  await page.getByTestId('deployment-form').scrollIntoViewIfNeeded();
  await console_.screenshots('configuration-deployment-form');
  await page.getByTestId('deployment-create').click();
  await expect(config.deploymentRow('roles_to_staging')).toContainText('org: staging');
  await expect(config.deploymentRow('roles_to_staging')).toContainText('never');
  await page.getByTestId('deployment-preview').click();
  await expect(page.getByTestId('deployment-result')).toHaveAttribute('data-result', 'dry-run');
  // Each changed resource has its side-by-side diff (issue 44 item 6), as the import review has.
  await expect(config.changeItem('role.auditor')).toHaveAttribute('data-change', 'added');
  await expect(config.changeItem('role.analyst')).toHaveAttribute('data-change', 'changed');
  await config.changeItem('role.analyst').click();
  const preview = page.getByTestId('deployment-result').getByTestId('json-diff');
  await expect(preview).toHaveAttribute('data-resource', 'role.analyst');
  await expect(preview.locator('td.json-diff--removed')).toContainText(['"name": "Analyst",']);
  await expect(preview.locator('td.json-diff--added')).toContainText(['"name": "Analyst (v2)",']);
  await preview.scrollIntoViewIfNeeded();
  await console_.screenshots('configuration-deployment-preview');
  expect(await roleCodes(stagingApi)).not.toContain('auditor');
  await page.getByTestId('deployment-run').click();
  await page.getByTestId('deployment-run-confirm').click();
  await expect(page.getByTestId('deployment-result')).toHaveAttribute('data-result', 'complete');
  expect(await roleCodes(stagingApi)).toContain('auditor');
  await expect(page.getByTestId('deployment-run-row')).toHaveCount(2);
  await expect(page.getByTestId('deployment-run-row').first()).toHaveAttribute('data-result', 'complete');
  await expect(config.deploymentRow('roles_to_staging').getByTestId('deployment-last-run')).toContainText('complete');
  await config.screenshot('configuration-deployments-1440-light');
  await page.getByTestId('theme-toggle').click();
  await config.screenshot('configuration-deployments-1440-dark');
  await page.getByTestId('theme-toggle').click();

  // staging sees both runs in its own log: switch org from the header (staging asks for a sign-in).
  await config.switchOrg('staging');
  await console_.login(EMAIL, PASSWORD);
  await config.open();
  await config.tab('deployments');
  const seen = page.getByTestId('peer-run-row');
  await expect(seen).toHaveCount(2);
  await expect(seen.first()).toHaveAttribute('data-org', 'demo');
  await expect(seen.first()).toContainText('roles_to_staging');
  await page.getByTestId('peer-runs').scrollIntoViewIfNeeded();
  await console_.screenshots('configuration-deployments-seen-by-target');
});

test('the org switcher lists the service’s orgs; only the operator may create one', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const demo = await objectsApi(service.url, EMAIL, PASSWORD);
  const other = await demo.send('POST', 'developer/orgs', {
    code: 'other',
    name: 'Other',
    adminEmail: 'boss@other.test',
    adminPassword: PASSWORD,
  });
  expect(other.status, JSON.stringify(other.body)).toBe(200);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  const config = new ConfigurationPage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);

  // demo is the org made at first start: its administrator is the operator.
  await config.openOrgSwitcher();
  await expect(config.orgSwitcherItem('demo')).toHaveAttribute('data-state', 'current');
  await expect(config.orgSwitcherItem('other')).toHaveAttribute('data-state', 'sign in');
  await expect(page.getByTestId('org-new')).toBeVisible();
  await console_.screenshots('org-switcher-operator');
  await page.getByTestId('org-new').click();
  const dialog = page.getByTestId('new-org-dialog');
  await dialog.getByTestId('new-org-code').fill('clinic');
  await dialog.getByTestId('new-org-name').fill('Clinic');
  await dialog.getByTestId('new-org-email').fill('boss@clinic.test');
  await dialog.getByTestId('new-org-password').fill(PASSWORD);
  await dialog.getByTestId('new-org-confirm').fill(PASSWORD);
  await console_.screenshots('org-new-dialog');
  await dialog.getByTestId('new-org-submit').click();
  // The new org's sign-in screen: its administrator is an account of its own.
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(config.orgPicker()).toHaveValue('clinic');
  await console_.login('boss@clinic.test', PASSWORD);
  await expect(page.getByTestId('current-user')).toHaveText('boss@clinic.test');

  // Not the operator here: the switcher lists the orgs, with no "New org"; demo is still signed in.
  await config.openOrgSwitcher();
  await expect(config.orgSwitcherItem('demo')).toHaveAttribute('data-state', 'signed in');
  await expect(page.getByTestId('org-switcher-item')).toHaveCount(3);
  await expect(page.getByTestId('org-new')).toHaveCount(0);
  await console_.screenshots('org-switcher-not-operator');
  await config.orgSwitcherItem('demo').click();
  await expect(page.getByTestId('current-user')).toHaveText(EMAIL);
});
