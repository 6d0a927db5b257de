import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';
import { objectsApi, seedAccounts } from '../pages/objects-api';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

async function signIn(page: Page): Promise<ObjectBrowserPage> {
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  return new ObjectBrowserPage(page);
}

/** Every record of a query, paged through the API as the signed-in console. */
async function allIdsFromApi(page: Page, collection: string, where: object, sort?: object): Promise<string[]> {
  return page.evaluate(
    async ({ collection, where, sort }) => {
      const info = await (await fetch('/_service/info')).json();
      const key = info.data.orgs[0].consoleAppKey as string;
      const ids: string[] = [];
      for (let skip = 0; ; skip += 1000) {
        const params = new URLSearchParams({ where: JSON.stringify(where), limit: '1000', skip: String(skip) });
        if (sort) params.set('sort', JSON.stringify(sort));
        const res = await fetch(`/demo/v2/${collection}?${params.toString()}`, {
          headers: { 'Service-Client-Key': key },
        });
        const body = (await res.json()) as { data: { _id: string }[]; hasMore: boolean };
        ids.push(...body.data.map((r) => r._id));
        if (!body.hasMore) return ids;
      }
    },
    { collection, where, sort },
  );
}

test('visual query builder ⇄ JSON, skip and keyset paging, rows equal the API answer', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 45);
  const browser = await signIn(page);
  await browser.open();
  await browser.pickCollection('accounts');

  // Builder → JSON: a regex condition and a sort key.
  await browser.addCondition('name.last', '$regex', '/^s/i');
  await expect(browser.json()).toHaveValue(/"name\.last": \{\s*"\$regex": "\/\^s\/i"/);
  await browser.addSort('name.last', 1);
  await browser.addSort('name.first', -1);
  await browser.setLimit(10);
  await browser.runWithShortcut();

  expect(page.url()).toContain('c=accounts');
  expect(decodeURIComponent(page.url())).toContain('"$regex":"/^s/i"');
  await expect(browser.requestUrl()).toContainText('/demo/v2/accounts?where=');
  let shown = await browser.shownIds();
  expect(shown).toHaveLength(10);
  expect(shown).toEqual(await browser.apiIdsForShownRequest());
  await browser.screenshot('object-browser');

  // Sorted by name: skip paging.
  await browser.next();
  await expect(browser.requestUrl()).toContainText('skip=10');
  shown = await browser.shownIds();
  expect(shown).toEqual(await browser.apiIdsForShownRequest());
  expect(shown.length).toBeGreaterThan(0);

  // JSON → builder, with the shared parser's faults shown at their spot.
  await browser.typeJson('{"email": "x",}');
  await expect(browser.jsonError()).toContainText('character 14');
  await expect(page.getByTestId('qb-run')).toBeDisabled();
  await browser.typeJson('{"$and": [{"favorite": true}, {"shared": true}]}');
  await expect(page.getByTestId('qb-json-error-path')).toHaveText('where.$and[1].shared');
  await expect(page.getByTestId('qb-json-mark')).toHaveText('"shared": true');
  await browser.screenshot('object-browser-json-error');
  await browser.typeJson('{"favorite": true, "locale": {"$in": ["de_DE"]}}');
  await expect(browser.jsonError()).toHaveCount(0);
  await expect(page.getByTestId('qb-property')).toHaveCount(2);
  await expect(page.getByTestId('qb-property').nth(1)).toHaveValue('locale');
  await expect(page.getByTestId('qb-operator').nth(1)).toHaveValue('$in');
  await expect(page.getByTestId('qb-list-item')).toHaveValue('de_DE');

  // Default order (_id descending): keyset paging with _id $lt the last id.
  for (let i = 0; i < 2; i++)
    await page
      .getByLabel(/Remove sort key/)
      .first()
      .click();
  await browser.setLimit(3);
  await browser.run();
  const firstPage = await browser.shownIds();
  expect(firstPage).toEqual(await browser.apiIdsForShownRequest());
  await browser.next();
  expect(page.url()).toContain(`after=${firstPage[firstPage.length - 1]}`);
  expect(decodeURIComponent((await browser.requestUrl().textContent()) ?? '')).toContain(
    `{"_id":{"$lt":"${firstPage[firstPage.length - 1]}"}}`,
  );
  const secondPage = await browser.shownIds();
  expect(secondPage).toEqual(await browser.apiIdsForShownRequest());
  expect(secondPage.some((id) => firstPage.includes(id))).toBe(false);
  await browser.previous();
  expect(await browser.shownIds()).toEqual(firstPage);

  // The URL reopens the same view.
  await page.reload();
  await expect(page.getByTestId('result-row').first()).toBeVisible();
  expect(await browser.shownIds()).toEqual(firstPage);
  await expect(browser.json()).toHaveValue(/"locale"/);

  // Dark theme of the same screen.
  await page.getByTestId('theme-toggle').click();
  await browser.screenshot('object-browser-dark');
});

test('export holds exactly the query records; record drawer pages a list property', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 30);
  const file = await api.send<{ _id: string }>('POST', 'c_patientfiles', { c_name: 'Jane Roe', c_mrn: 'MRN-1' });
  for (const access of [2, 3, 4, 5, 6]) {
    await api.send('POST', 'connections', {
      context: { _id: file.body._id, object: 'c_patientfile' },
      access,
      email: `c${access}@demo.test`,
    });
  }
  const browser = await signIn(page);

  // Export: sorted by email (skip paging), with a where; CSV holds exactly those records.
  const where = { locale: 'de_DE' };
  await page.goto(
    `${service.consoleUrl}#/browse?c=accounts&where=${encodeURIComponent(JSON.stringify(where))}` +
      `&sort=${encodeURIComponent('{"email":1}')}&limit=10`,
  );
  await browser.waitForRows();
  const csv = await browser.export('csv');
  const csvText = readFileSync((await csv.path()) ?? '', 'utf8');
  const [header, ...lines] = csvText.trim().split('\r\n');
  expect(header?.split(',')[0]).toBe('_id');
  const expected = await allIdsFromApi(page, 'accounts', where, { email: 1 });
  expect(lines.map((line) => line.split(',')[0])).toEqual(expected);
  expect(csv.suggestedFilename()).toMatch(/^accounts-.*\.csv$/);
  await expect(page.getByTestId('export-result')).toContainText(`Exported ${expected.length} records`);

  // NDJSON in the default order (keyset), paths[] honoured.
  await page.goto(`${service.consoleUrl}#/browse?c=accounts&paths=email&limit=7`);
  await browser.waitForRows();
  const ndjson = await browser.export('ndjson');
  const records = readFileSync((await ndjson.path()) ?? '', 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(records.map((r) => r._id)).toEqual(await allIdsFromApi(page, 'accounts', {}));
  expect(Object.keys(records[0] ?? {}).sort()).toEqual(['_id', 'email', 'object']);

  // Drawer: the record and its connections as their own paged, filtered list.
  await page.goto(`${service.consoleUrl}#/browse?c=c_patientfiles&limit=10`);
  await browser.waitForRows();
  await browser.openRow(0);
  await expect(page.getByTestId('record-id')).toHaveText(file.body._id);
  await expect(page.getByTestId('record-json')).toContainText('Jane Roe');
  const connections = page.getByTestId('list-property-connections');
  await expect(connections.getByTestId('list-row')).toHaveCount(5);
  await connections.getByTestId('list-where').fill('{"access": {"$gte": 4}}');
  await connections.getByTestId('list-sort').fill('{"access": 1}');
  await connections.getByTestId('list-apply').click();
  await expect(connections.getByTestId('list-row')).toHaveCount(3);
  await expect(connections.getByTestId('list-row').first()).toContainText('c4@demo.test');
  expect(page.url()).toContain(`record=${file.body._id}`);
  await browser.screenshot('record-drawer');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('record-drawer')).toHaveCount(0);
});

test('accounts: search by name or email equals the API answer; a row opens the drawer (issue #18 item 4)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 30);
  await page.setViewportSize({ width: 1440, height: 900 });
  const browser = await signIn(page);
  await page.goto(`${service.consoleUrl}#/browse?c=accounts&limit=100`);
  await browser.waitForRows();
  const search = page.getByTestId('browse-account-search');

  // The same where the Manage-accounts search sends: email, first or last name prefix, any case.
  const prefix = (text: string) => ({ $regex: `/^${text}/i` });
  const whereFor = (text: string) => ({
    $or: [{ email: prefix(text) }, { 'name.first': prefix(text) }, { 'name.last': prefix(text) }],
  });

  // By last name, case-insensitively ("shaw" is stored lower-case, typed capitalised).
  await search.fill('Sh');
  await search.press('Enter');
  await browser.waitForRows();
  await expect(page.getByTestId('qb-bar-where')).toHaveValue(JSON.stringify(whereFor('Sh')));
  const byName = await allIdsFromApi(page, 'accounts', whereFor('Sh'));
  expect(byName.length).toBeGreaterThan(0);
  expect(await browser.shownIds()).toEqual(byName);
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());
  await new ConsolePage(page).screenshots('browse-accounts-search');

  // By email prefix; the box survives a reload because the where is in the URL.
  await search.fill('user01');
  await page.getByTestId('browse-account-search-run').click();
  await browser.waitForRows();
  const byEmail = await allIdsFromApi(page, 'accounts', whereFor('user01'));
  expect(byEmail).toHaveLength(10);
  expect(await browser.shownIds()).toEqual(byEmail);
  await page.reload();
  await browser.waitForRows();
  await expect(page.getByTestId('browse-account-search')).toHaveValue('user01');
  expect(await browser.shownIds()).toEqual(byEmail);

  // A click on a row opens the record drawer with that account.
  const row = page.getByTestId('result-row').nth(2);
  const id = (await row.getAttribute('data-id')) ?? '';
  const email = await page.evaluate(async (accountId) => {
    const info = await (await fetch('/_service/info')).json();
    const key = info.data.orgs[0].consoleAppKey as string;
    const res = await fetch(`/demo/v2/accounts/${accountId}`, { headers: { 'Service-Client-Key': key } });
    return ((await res.json()) as { email: string }).email;
  }, id);
  expect(email).toMatch(/^user01\d@demo\.test$/);
  await row.click();
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  await expect(page.getByTestId('record-json')).toContainText(email);
  await expect(page).toHaveURL(new RegExp(`record=${id}`));
  await new ConsolePage(page).screenshots('browse-accounts-drawer');

  // The keyboard does the same: Escape closes, focus returns to the grid, Down + Enter opens the next row.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('record-drawer')).toHaveCount(0);
  await expect(page.getByTestId('result-grid')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('record-drawer')).toBeVisible();
  const next = (await page.getByTestId('result-row').nth(3).getAttribute('data-id')) ?? '';
  await expect(page).toHaveURL(new RegExp(`record=${next}`));

  // An empty search clears the where.
  await page.keyboard.press('Escape');
  await search.fill('');
  await search.press('Enter');
  await browser.waitForRows();
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('');
  expect(await browser.shownIds()).toHaveLength(31);
});
