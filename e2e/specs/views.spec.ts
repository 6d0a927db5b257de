import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
import { opsAdminApi } from '../pages/ops-admin';
import { ViewsPage } from '../pages/views-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

const CONVERSATIONS: [string, string][] = [
  ['Alpha', 'open'],
  ['Bravo', 'closed'],
  ['Charlie', 'open'],
  ['Delta', 'open'],
  ['Echo', 'closed'],
];

test('save a Browse query as a view, run it, fix a fault at its field, and share it with a view-only token', async ({
  page,
}) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await opsAdminApi(service.url, await objectsApi(service.url, EMAIL, PASSWORD));
  for (const [title, status] of CONVERSATIONS) {
    const res = await api.send('POST', 'c_conversations', { c_title: title, c_status: status });
    expect(res.status).toBe(200);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('nav-views')).toBeVisible();

  // Browse: the query as the URL names it (the builder itself is another screen's business).
  const where = encodeURIComponent('{"c_status":"open"}');
  const sort = encodeURIComponent('{"c_title":1}');
  await page.evaluate(
    (hash) => (window.location.hash = hash),
    `#/browse?c=c_conversations&where=${where}&sort=${sort}`,
  );
  await expect(page.getByTestId('result-row')).toHaveCount(3);

  const views = new ViewsPage(page);
  const dialog = await views.openSaveAsView();
  await expect(dialog.getByTestId('save-view-condition')).toHaveCount(1);
  await views.makeVariable(dialog, 'c_status = "open"', 'status');
  await dialog.getByTestId('save-view-name').fill('convs_by_status');
  await expect(dialog.getByTestId('save-view-preview')).toContainText('where: {"c_status":"{{status}}"}');
  await expect(dialog.getByTestId('save-view-preview')).toContainText('sort: {"c_title":1}');
  await views.screenshot('views-save-as-view-1440-light');
  await dialog.getByTestId('save-view-submit').click();
  await expect(dialog.getByTestId('save-view-done')).toBeVisible();
  await expect(dialog.getByTestId('save-view-url')).toContainText('/demo/v2/views/convs_by_status?status=open');
  await dialog.getByTestId('save-view-open').click();

  // The Views screen lists it with its variable; a run shows exactly the rows the API answers.
  await expect(views.item('convs_by_status')).toContainText('{status}');
  await views.select('convs_by_status');
  await views.run({ status: 'open' });
  const shown = await views.rowIds();
  const answered = await api.get<{ data: { _id: string; c_title: string }[] }>('views/convs_by_status?status=open');
  expect(answered.status).toBe(200);
  expect(shown).toEqual(answered.body.data.map((r) => r._id));
  expect(answered.body.data.map((r) => r.c_title)).toEqual(['Alpha', 'Charlie', 'Delta']);
  const url = await views.url();
  expect(url).toBe(`${service.url}/demo/v2/views/convs_by_status?status=open`);

  // Paging with a settable limit: two rows, then the next page.
  await views.run({ status: 'open' }, 2);
  expect(await views.rowIds()).toEqual(answered.body.data.slice(0, 2).map((r) => r._id));
  await page.getByTestId('view-run-next').click();
  await expect(page.getByTestId('view-run-range')).toContainText('Rows 3–3');
  expect(await views.rowIds()).toEqual(answered.body.data.slice(2).map((r) => r._id));
  await views.screenshot('views-run-1440-light');
  await page.getByTestId('theme-toggle').click();
  await views.screenshot('views-run-1440-dark');
  await page.getByTestId('theme-toggle').click();

  // A view-only token: reads the view, refused on the object itself.
  const token = await views.mintToken();
  expect(token.split('.')).toHaveLength(3);
  await views.screenshot('views-token-1440-light');
  await views.closeTokenDialog();
  await expect(page.getByTestId('view-token-value')).toHaveCount(0);
  const viaToken = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const viaTokenBody = (await viaToken.json()) as { data: { _id: string }[] };
  expect(viaTokenBody.data.map((r) => r._id)).toEqual(answered.body.data.map((r) => r._id));
  const direct = await fetch(`${service.url}/demo/v2/c_conversations`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(await direct.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.scope' });

  // The service validates on save; its fault shows at the field it names.
  await views.fill({ where: '{"c_nope": 1, "c_status": "{{status}}"}' });
  await views.save();
  await expect(views.fieldError('where')).toContainText('c_nope');
  await views.screenshot('views-fault-1440-light');
  await page.getByTestId('theme-toggle').click();
  await views.screenshot('views-fault-1440-dark');
  await page.getByTestId('theme-toggle').click();
  await views.fill({ where: '{"c_status": "{{status}}", "c_title": {"$ne": "{{skip_title}}"}}' });
  await views.save();
  await expect(page.getByTestId('view-saved')).toBeVisible();
  await expect(views.item('convs_by_status')).toContainText('{status} {skip_title}');
  const stored = await api.get<{ data: { query: { name: string; value: string }[] }[] }>('views');
  expect(stored.body.data[0]!.query[0]!.value).toContain('skip_title');

  // A new view from scratch: a missing variable is the service's invalidArgument, shown with the run.
  await views.startNew();
  await views.fill({
    name: 'closed_convs',
    source: 'c_conversation',
    where: '{"c_status": "closed"}',
    acl: 'account *',
  });
  await views.save();
  await expect(views.item('closed_convs')).toBeVisible();
  await views.select('closed_convs');
  await views.run({});
  expect(await views.rowIds()).toHaveLength(2);
  await views.select('convs_by_status');
  await page.getByTestId('view-run').click();
  await expect(page.getByTestId('view-runner').getByTestId('fault-errcode')).toHaveText(
    'service.invalidArgument.viewVariable',
  );
});
