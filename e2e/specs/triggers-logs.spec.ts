import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
import { RecordsPage } from '../pages/records-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

/** A before trigger that refuses titles with an x (its error is made on line 3, which the trace names). */
const NO_X = `var title = script.arguments.new.c_title || '';
if (title.indexOf('x') !== -1) {
  var e = new Error('Titles may not contain x.');
  e.errCode = 'service.validation.noX';
  e.reason = 'Titles may not contain x.';
  throw e;
}`;

test('a trigger refuses a create in Browse with its fault; the run is in Logs and the save in Audit', async ({
  page,
}) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  const saved = await api.send<{ _id: string }>('POST', 'scripts', {
    label: 'No x in titles',
    type: 'trigger',
    script: NO_X,
    configuration: { object: 'c_conversation', event: 'create.before' },
  });
  expect(saved.status).toBe(200);

  const console_ = new ConsolePage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await console_.open(`${service.consoleUrl}#/browse?c=c_conversations&limit=25`);
  await console_.login(EMAIL, PASSWORD);
  const records = new RecordsPage(page);
  await expect(page.getByTestId('result-empty')).toBeVisible();

  // Refused: the trigger's fault, in its words and with its errCode.
  await records.startCreate();
  await records.field('c_title').fill('Tax');
  await records.save();
  await expect(page.getByTestId('record-editor')).toContainText('Titles may not contain x.');
  await expect(page.getByTestId('fault-errcode')).toHaveText('service.validation.noX');
  await console_.screenshots('trigger-refused');
  // Without an x the trigger lets it through.
  await records.field('c_title').fill('Tea');
  await records.save();
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  await expect(page.getByTestId('result-row')).toHaveCount(1);

  // Logs: the trigger's failed run, its fault, and the script opened at the line that threw.
  await page.goto(`${service.consoleUrl}#/logs?type=trigger`);
  await expect(page.locator('h1.screen__title')).toHaveText('Logs');
  const entries = page.getByTestId('log-entry');
  await expect(entries).toHaveCount(2);
  const failed = page.locator('[data-testid="log-entry"][data-outcome="error"]');
  await expect(failed).toContainText('service.validation.noX');
  await failed.locator('summary').click();
  await expect(failed.getByTestId('log-fault')).toContainText('Titles may not contain x.');
  await console_.screenshots('logs');
  await page.getByTestId('logs-outcome').selectOption('error');
  await expect(entries).toHaveCount(1);
  // The entry stays open across the filter change (the same entry, the same element).
  await failed.getByTestId('log-open-script').click();
  await expect(page.locator('h1.screen__title')).toHaveText('Scripts');
  await expect(page.getByTestId('trigger-event')).toHaveText('create.before');
  await expect(page.getByTestId('editor-error-line')).toContainText("new Error('Titles may not contain x.')");
  await console_.screenshots('scripts-trigger');

  // Audit: saving the trigger is there, with who saved it.
  await page.goto(`${service.consoleUrl}#/audit?action=script`);
  await expect(page.locator('h1.screen__title')).toHaveText('Audit');
  const audit = page.getByTestId('audit-entry');
  await expect(audit).toHaveCount(1);
  await expect(audit).toContainText('Created script No x in titles');
  await expect(audit).toContainText('(session');
  await console_.screenshots('audit');
  await audit.getByTestId('audit-open-target').click();
  await expect(page.locator('h1.screen__title')).toHaveText('Scripts');
});
