import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { RecordsPage } from '../pages/records-page';
import { ScriptsPage } from '../pages/scripts-page';

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
  const console_ = new ConsolePage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await console_.open(`${service.consoleUrl}#/scripts`);
  await console_.login(EMAIL, PASSWORD);

  // The trigger is written and saved in the Scripts screen: its type, object and event.
  const scripts = new ScriptsPage(page);
  await expect(scripts.editor()).toBeVisible();
  await scripts.write(NO_X);
  await scripts.saveAs({
    type: 'trigger',
    name: 'c_no_x',
    label: 'No x in titles',
    object: 'c_conversation',
    event: 'create.before',
  });
  await expect(page.getByTestId('trigger-event')).toHaveText('create.before');
  await expect(scripts.libraryItem('c_no_x')).toContainText('trigger create.before c_conversation');
  await console_.screenshots('scripts-trigger-saved');
  // The trigger's own rows (object, event, weight, principal), shared in part with a route's.
  await page.getByTestId('trigger-settings').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('save-weight')).toBeVisible();
  await console_.screenshots('scripts-trigger-settings');
  // At 1024×700 the rows sit below the fold: the rows themselves, in both themes.
  await page.setViewportSize({ width: 1024, height: 700 });
  for (const theme of ['light', 'dark'] as const) {
    await console_.theme(theme);
    await page
      .getByTestId('trigger-settings')
      .screenshot({ path: `e2e/artifacts/scripts-trigger-rows-1024-${theme}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await console_.theme('light');

  await page.goto(`${service.consoleUrl}#/browse?c=c_conversations&limit=25`);
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

  // A job saved in the Scripts screen shows its schedule and next run, and runs by hand.
  await page.getByTestId('script-new').click();
  await scripts.write("console.log('nightly');\nreturn org.objects.c_conversations.find().count()");
  await scripts.saveAs({ type: 'job', name: 'c_nightly', label: 'Nightly count', cron: '0 3 * * *' });
  await expect(page.getByTestId('job-cron')).toHaveText('0 3 * * *');
  await expect(page.getByTestId('job-next')).toContainText('03:00');
  await page.getByTestId('job-run-now').click();
  await expect(page.getByTestId('job-runs')).toContainText('(by hand)');
  // The org's cap on job runs a day, and what the run by hand left of it.
  await expect(page.getByTestId('job-cap')).toHaveText('Job runs left for the org: 999 of 1,000 a day');
  await expect(scripts.libraryItem('c_nightly')).toContainText('job 0 3 * * *');
  await console_.screenshots('scripts-job');
});
