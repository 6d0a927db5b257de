import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { RecordsPage } from '../pages/records-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

test('create, edit and delete records with schema forms; faults land on their fields', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/browse?c=c_conversations&limit=25`);
  await console_.login(EMAIL, PASSWORD);
  const browser = new ObjectBrowserPage(page);
  const records = new RecordsPage(page);
  await expect(page.getByTestId('result-empty')).toBeVisible();

  // Create: a generated form (String, enum, ObjectId[] lines).
  await records.startCreate();
  await records.field('c_title').fill('Kick-off');
  await records.field('c_status').selectOption('open');
  await records.field('c_participants').fill('not-an-id');
  await records.save();
  // The service's validation fault shows on the field it names.
  await expect(records.fieldError('c_participants')).toBeVisible();
  await browser.screenshot('records-fault');
  await records.field('c_participants').fill('0123456789abcdef01234567');
  await records.save();
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  const id = (await page.getByTestId('record-id').textContent()) ?? '';
  expect((await records.apiGet(`c_conversations/${id}`)).body).toMatchObject({
    c_title: 'Kick-off',
    c_status: 'open',
    c_participants: ['0123456789abcdef01234567'],
  });
  await expect(page.getByTestId('result-row')).toHaveCount(1);

  // Edit: the change shows up in the API.
  await records.edit();
  await expect(records.field('c_title')).toHaveValue('Kick-off');
  await records.field('c_title').fill('Kick-off, moved');
  await records.field('c_status').selectOption('closed');
  await browser.screenshot('records-edit');
  await records.save();
  await expect(page.getByTestId('record-json')).toContainText('Kick-off, moved');
  expect((await records.apiGet(`c_conversations/${id}`)).body).toMatchObject({
    c_title: 'Kick-off, moved',
    c_status: 'closed',
  });

  // Delete.
  await records.delete();
  expect((await records.apiGet(`c_conversations/${id}`)).status).toBe(404);
  await expect(page.getByTestId('result-empty')).toBeVisible();
});

test('a new account needs a valid email and password; the faults name the fields', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const console_ = new ConsolePage(page);
  await console_.open(`${service.consoleUrl}#/browse?c=accounts&limit=25`);
  await console_.login(EMAIL, PASSWORD);
  const records = new RecordsPage(page);
  await records.startCreate();
  await records.field('email').fill('new.person@demo.test');
  await records.field('name.first').fill('New');
  await records.field('password').fill('short');
  await records.save();
  await expect(records.fieldError('password')).toContainText(/at least 8 characters/i);
  await records.field('password').fill('a long enough password');
  await records.save();
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  await expect(page.getByTestId('record-json')).toContainText('new.person@demo.test');
});
