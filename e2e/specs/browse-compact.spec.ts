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
// Each test starts its own service and seeds it; on a shared 2-core machine that takes a while.
test.setTimeout(300_000);

async function signIn(page: Page): Promise<ObjectBrowserPage> {
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  return new ObjectBrowserPage(page);
}

function browseUrl(query: Record<string, string>): string {
  return `${service.consoleUrl}#/browse?${new URLSearchParams(query).toString()}`;
}

/** Rows of the grid wholly inside its scroll area, as a person sees them. */
async function fullyVisibleRows(page: Page): Promise<number> {
  return page.getByTestId('result-grid').evaluate((grid) => {
    const box = grid.getBoundingClientRect();
    return [...grid.querySelectorAll('[data-testid="result-row"]')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= box.top && r.bottom <= box.bottom + 0.5;
    }).length;
  });
}

test('the builder shows the query that runs: operators it does not offer stay as written (issue #18 item 1)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 12);
  const browser = await signIn(page);

  await page.goto(browseUrl({ c: 'accounts', where: '{"favorite":{"$gt":false}}' }));
  await browser.waitForRows();
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"favorite":{"$gt":false}}');
  await browser.expandBuilder();
  await expect(page.getByTestId('qb-operator')).toHaveValue('$gt');
  await expect(page.getByTestId('qb-operator').locator('option:checked')).toContainText('as written in JSON');
  await expect(page.getByTestId('qb-value')).toHaveValue('false');
  // What runs is what is shown: every row is a favourite, and as many as the API answers.
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());
  expect(await browser.shownIds()).toHaveLength(4);

  // An explicit $eq and an explicit $and survive the builder untouched, also after an edit elsewhere.
  await browser.typeJson('{"$and":[{"locale":{"$eq":"de_DE"}},{"favorite":true}]}');
  await page.getByTestId('qb-bar-sort').fill('{"email":1}');
  await expect(page.getByTestId('qb-bar-where')).toHaveValue('{"$and":[{"locale":{"$eq":"de_DE"}},{"favorite":true}]}');
  await expect(page.getByTestId('qb-operator').first()).toHaveValue('$eq');

  // A condition the builder can't show exactly says so instead of showing something else.
  await browser.typeJson('{"created":{"$gt":"2024-05-01T12:00:00.123+02:00"}}');
  await expect(page.getByTestId('qb-condition')).toHaveCount(1);
  await expect(page.getByTestId('qb-value')).toHaveValue('2024-05-01T10:00:00.123');
  await browser.screenshot('browse-builder-as-written');
});

test('compact query bar: one line, ≥ 15 rows at 1024×700, the builder on demand, sidebar folds (item 3)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 30);
  await page.setViewportSize({ width: 1024, height: 700 });
  const browser = await signIn(page);
  await page.goto(browseUrl({ c: 'accounts', limit: '100' }));
  await browser.waitForRows();

  // The bar is compact (at most two short lines at this width) and the builder is folded.
  const panel = await page.getByRole('region', { name: 'Query' }).boundingBox();
  expect(panel?.height ?? 999).toBeLessThanOrEqual(90);
  await expect(page.getByTestId('qb-json')).toHaveCount(0);
  expect(await fullyVisibleRows(page)).toBeGreaterThanOrEqual(15);
  // One scroll area: the screen itself does not scroll.
  const screenScrolls = await page
    .locator('.browse')
    .evaluate((el) => el.scrollHeight > el.clientHeight + 1 || getComputedStyle(el).overflowY === 'auto');
  expect(screenScrolls).toBe(false);
  await browser.screenshot('browse-1024-light');
  await page.getByTestId('theme-toggle').click();
  await browser.screenshot('browse-1024-dark');

  // Typing in the bar runs the same query as the builder would.
  await page.getByTestId('qb-bar-where').fill('{"locale":"de_DE"}');
  await browser.run();
  expect(await browser.shownIds()).toEqual(await browser.apiIdsForShownRequest());
  expect(await browser.shownIds()).toHaveLength(15);
  await browser.expandBuilder();
  await expect(page.getByTestId('qb-property')).toHaveValue('locale');
  await browser.screenshot('browse-1024-dark-builder');

  await page.setViewportSize({ width: 1440, height: 900 });
  await browser.screenshot('browse-1440-dark-builder');
  await page.getByTestId('theme-toggle').click();
  await page.getByTestId('qb-toggle-builder').click();
  // At 1440 the whole bar is one line: where, sort, paths, limit, builder, saved, request, Run.
  const bar = await page.getByTestId('qb-bar-where').boundingBox();
  const run = await page.getByTestId('qb-run').boundingBox();
  expect(Math.abs((bar?.y ?? 0) + (bar?.height ?? 0) / 2 - (run?.y ?? 0) - (run?.height ?? 0) / 2)).toBeLessThan(4);
  await browser.screenshot('browse-1440-light');

  // Narrow window: the sidebar folds behind the menu button.
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(page.getByTestId('nav-browse')).toBeHidden();
  await page.getByTestId('nav-toggle').click();
  await expect(page.getByTestId('nav-browse')).toBeVisible();
  await browser.screenshot('browse-900-nav-open');
  await page.getByTestId('nav-browse').click();
  await expect(page.getByTestId('nav-browse')).toBeHidden();
});

test('grid: total from the count operation, header sort equals the API, widths kept per collection (item 4)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 24);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The API's answers first: signing the console in ends this session (one session per account).
  const where = { locale: 'de_DE' };
  const counted = await api.send<{ data: number }>('POST', 'accounts/db/count', {});
  expect(counted.status, JSON.stringify(counted.body)).toBe(200);
  const narrowed = await api.send<{ data: number }>('POST', 'accounts/db/count', { where });
  const sorted = async (dir: 1 | -1) =>
    (
      await api.get<{ data: { _id: string }[] }>(
        `accounts?where=${encodeURIComponent(JSON.stringify(where))}&sort=${encodeURIComponent(JSON.stringify({ email: dir }))}&limit=10`,
      )
    ).body.data.map((r) => r._id);
  const ascending = await sorted(1);
  const descending = await sorted(-1);
  expect(ascending).toHaveLength(10);

  const browser = await signIn(page);
  await page.goto(browseUrl({ c: 'accounts', limit: '10', skip: '0', sort: '{"email":1}' }));
  await browser.waitForRows();
  await expect(page.getByTestId('result-range')).toHaveText(`1–10 of ${counted.body.data}`);
  await browser.next();
  await expect(page.getByTestId('result-range')).toHaveText(`11–20 of ${counted.body.data}`);

  // A where narrows the total to the API's count for the same where.
  await page.goto(
    browseUrl({
      c: 'accounts',
      limit: '10',
      where: JSON.stringify(where),
      cols: '_id,email,name.last,roles,c_study_groups',
    }),
  );
  await browser.waitForRows();
  await expect(page.getByTestId('result-range')).toHaveText(`1–10 of ${narrowed.body.data}`);

  // Header sort: ascending, then descending, each equal to the API's sorted answer.
  const header = (path: string) => page.locator(`[data-testid="result-header"][data-path="${path}"]`);
  await header('email').getByTestId('result-sort').click();
  await browser.waitForRows();
  expect(decodeURIComponent(page.url())).toContain('sort={"email":1}');
  await expect(header('email')).toHaveAttribute('aria-sort', 'ascending');
  expect(await browser.shownIds()).toEqual(ascending);
  await header('email').getByTestId('result-sort').click();
  await browser.waitForRows();
  await expect(header('email')).toHaveAttribute('aria-sort', 'descending');
  expect(await browser.shownIds()).toEqual(descending);

  // A column the service can't sort by is disabled and says why.
  const unsortable = page.locator('[data-testid="result-sort"]:disabled');
  expect(await unsortable.count()).toBeGreaterThan(0);
  await expect(unsortable.first()).toHaveAttribute('title', /can't be sorted: the service sorts only by indexed/);
  await expect(header('email').getByTestId('result-sort')).toBeEnabled();

  // Drag a width; it stays across pages and reloads, for this collection only.
  const before = (await header('email').boundingBox())?.width ?? 0;
  const handle = header('email').getByTestId('result-resize');
  const box = await handle.boundingBox();
  if (!box) throw new Error('no resize handle');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await header('email').boundingBox())?.width ?? 0).toBeGreaterThan(before + 80);
  const widened = (await header('email').boundingBox())?.width ?? 0;
  await browser.next();
  expect((await header('email').boundingBox())?.width).toBe(widened);
  await page.reload();
  await browser.waitForRows();
  expect((await header('email').boundingBox())?.width).toBe(widened);

  // The full value of a cut cell is on hover.
  const idCell = page.getByTestId('result-row').first().getByRole('gridcell').first();
  await expect(idCell).toHaveAttribute('title', /^[0-9a-f]{24}$/);
  await browser.screenshot('browse-grid-sorted-1440-light');
  await page.setViewportSize({ width: 1024, height: 700 });
  await browser.screenshot('browse-grid-sorted-1024-light');
  await page.getByTestId('theme-toggle').click();
  await browser.screenshot('browse-grid-sorted-1024-dark');
  await page.setViewportSize({ width: 1440, height: 900 });
  await browser.screenshot('browse-grid-sorted-1440-dark');
});

test('builder rows share one height, operator labels fit, focus follows edits and returns from the drawer (item 5)', async ({
  page,
}) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await seedAccounts(await objectsApi(service.url, EMAIL, PASSWORD), 5);
  await page.setViewportSize({ width: 1440, height: 900 });
  const browser = await signIn(page);
  await page.goto(browseUrl({ c: 'accounts' }));
  await browser.waitForRows();
  await browser.expandBuilder();

  await page.getByTestId('qb-add-condition').first().click();
  const first = page.getByTestId('qb-condition').first();
  await expect(first.getByTestId('qb-property')).toBeFocused();
  await first.getByTestId('qb-property').selectOption('created');
  await first.getByTestId('qb-operator').selectOption('$gte');

  // Property, operator and value: one height, one top edge; the operator's label is not cut.
  const boxes = await Promise.all(
    ['qb-property', 'qb-operator', 'qb-value'].map(async (id) => first.getByTestId(id).boundingBox()),
  );
  const heights = boxes.map((b) => Math.round(b?.height ?? 0));
  const tops = boxes.map((b) => Math.round(b?.y ?? 0));
  expect(new Set(heights).size).toBe(1);
  expect(new Set(tops).size).toBe(1);
  const fits = await first.getByTestId('qb-operator').evaluate((select) => {
    const el = select as HTMLSelectElement;
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return false;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = el.selectedOptions[0]?.textContent ?? '';
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(text).width <= room;
  });
  expect(fits).toBe(true);

  // + Group focuses the new group's logic; removing it returns focus to the parent's "+ Condition".
  await page.getByTestId('qb-add-group').first().click();
  await expect(page.getByTestId('qb-logic').nth(1)).toBeFocused();
  await page.getByTestId('qb-remove-group').click();
  await expect(page.getByTestId('qb-add-condition').first()).toBeFocused();
  await browser.screenshot('browse-builder-1440-light');

  // Closing the record drawer gives the keyboard back to the grid.
  await browser.openRow(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('record-drawer')).toHaveCount(0);
  await expect(page.getByTestId('result-grid')).toBeFocused();
});

test('export honours the visible columns; drawer list tables page and are not clipped (item 6)', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await objectsApi(service.url, EMAIL, PASSWORD);
  await seedAccounts(api, 6);
  const file = await api.send<{ _id: string }>('POST', 'c_patientfiles', { c_name: 'Jane Roe', c_mrn: 'MRN-1' });
  for (const access of [2, 3, 4, 5, 6, 7]) {
    await api.send('POST', 'connections', {
      context: { _id: file.body._id, object: 'c_patientfile' },
      access: Math.min(access, 6),
      email: `c${access}@demo.test`,
    });
  }
  await page.setViewportSize({ width: 1024, height: 700 });
  const browser = await signIn(page);

  await page.goto(browseUrl({ c: 'accounts', cols: '_id,name.last,email' }));
  await browser.waitForRows();
  const csv = await browser.export('csv');
  const header = readFileSync((await csv.path()) ?? '', 'utf8').split('\r\n')[0];
  expect(header).toBe('_id,email,name.last');
  await page.getByTestId('export-menu').locator('summary').click();
  await page.getByTestId('export-menu').locator('summary').click();
  await page.getByTestId('export-scope').selectOption('query');
  const all = await browser.export('csv');
  const allHeader = readFileSync((await all.path()) ?? '', 'utf8').split('\r\n')[0] ?? '';
  expect(allHeader.split(',').length).toBeGreaterThan(3);

  await page.goto(browseUrl({ c: 'c_patientfiles', limit: '10' }));
  await browser.waitForRows();
  await browser.openRow(0);
  const connections = page.getByTestId('list-property-connections');
  await expect(connections.getByTestId('list-row')).toHaveCount(6);
  await connections.getByTestId('list-page-size').selectOption('5');
  await expect(connections.getByTestId('list-row')).toHaveCount(5);
  await connections.getByTestId('list-next').click();
  await expect(connections.getByTestId('list-row')).toHaveCount(1);
  const drawer = await page.getByTestId('record-drawer').boundingBox();
  const panel = await connections.boundingBox();
  expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual((drawer?.x ?? 0) + (drawer?.width ?? 0) + 0.5);
  await browser.screenshot('browse-drawer-list-1024-light');
  await page.getByTestId('theme-toggle').click();
  await browser.screenshot('browse-drawer-list-1024-dark');
});
