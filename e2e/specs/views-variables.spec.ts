/**
 * Issue #44 item 5: a view declares a default and a description for each variable; the editor
 * lists the variables its where uses, the service refuses a default that is no valid argument (at
 * that variable), and the run form starts from the default and shows the description.
 */
import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { objectsApi } from '../pages/objects-api';
import { opsAdminApi } from '../pages/ops-admin';
import { ViewsPage } from '../pages/views-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';
const DESCRIPTION =
  'A regular expression written /pattern/flags: /^Sm/ finds Smith and Smithers (plain Sm is refused).';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});

test('a declared default and description: refused when invalid, prefilled and explained on the run form', async ({
  page,
}) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await opsAdminApi(service.url, await objectsApi(service.url, EMAIL, PASSWORD));
  for (const [first, last] of [
    ['Ann', 'Smith'],
    ['Sam', 'Smithers'],
    ['Bob', 'Stone'],
  ] as const) {
    const created = await api.send('POST', 'accounts', {
      email: `${first.toLowerCase()}@demo.test`,
      password: 'staple horse 42',
      name: { first, last },
    });
    expect(created.status).toBe(200);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const views = new ViewsPage(page);
  await views.open();

  // The editor lists the variable the where uses, with a default and a description field.
  await views.startNew();
  await views.fill({
    name: 'accounts_by_last',
    source: 'account',
    where: '{"name.last":{"$regex":"{{last_regex}}"}}',
    acl: 'account *',
  });
  await expect(page.getByTestId('view-variable')).toHaveCount(1);
  await expect(views.variable('last_regex').getByTestId('view-variable-default')).toHaveAttribute(
    'placeholder',
    'e.g. /^Sm/',
  );

  // A default that is no valid argument is refused at that variable, and nothing is saved.
  await views.declareVariable('last_regex', { defaultValue: 'Sm', description: DESCRIPTION });
  await views.save();
  const error = views.variable('last_regex').getByTestId('view-variable-error');
  await expect(error).toContainText('"Sm"');
  await expect(views.variable('last_regex').getByTestId('view-variable-default')).toHaveAccessibleDescription(/Sm/);
  await views.screenshotsOf(page.getByTestId('view-variables'), 'views-variables-fault');
  expect((await api.get<{ data: unknown[] }>('views')).body.data).toEqual([]);

  // Fixed: saved with the view.
  await views.declareVariable('last_regex', { defaultValue: '/^Sm/' });
  await views.save();
  await expect(views.item('accounts_by_last')).toBeVisible();
  await expect(page.getByTestId('view-runner')).toBeVisible();
  const stored = await api.get<{ data: { variables: unknown }[] }>('views');
  expect(stored.body.data[0]!.variables).toEqual([
    { name: 'last_regex', defaultValue: '/^Sm/', description: DESCRIPTION },
  ]);

  // The run form starts from the default and says what the variable wants, in the view's words.
  await expect(views.runField('last_regex')).toHaveValue('/^Sm/');
  await expect(views.runHint('last_regex')).toHaveAttribute('data-source', 'view');
  await expect(views.runHint('last_regex')).toContainText(DESCRIPTION);
  await expect(views.runField('last_regex')).toHaveAccessibleDescription(DESCRIPTION);
  await page.getByTestId('view-run').click();
  await expect(views.rows()).toHaveCount(2);
  await expect(page.getByTestId('view-url')).toHaveText(/\?last_regex=%2F%5ESm%2F$/);
  await views.screenshotsOf(page.getByTestId('view-runner'), 'views-variables-run');
  // The editor below keeps the declared variable.
  await expect(views.variable('last_regex').getByTestId('view-variable-default')).toHaveValue('/^Sm/');
  await views.screenshotsOf(page.getByTestId('view-variables'), 'views-variables-editor');

  // What was run last comes before the default; a run without the argument takes the default.
  await views.run({ last_regex: '/^St/' });
  await expect(views.rows()).toHaveCount(1);
  await views.select('accounts_by_last');
  await expect(views.runField('last_regex')).toHaveValue('/^St/');
  const byDefault = await api.get<{ data: { name: { last: string } }[] }>('views/accounts_by_last');
  expect(byDefault.status).toBe(200);
  expect(byDefault.body.data.map((r) => r.name.last).sort()).toEqual(['Smith', 'Smithers']);
});
