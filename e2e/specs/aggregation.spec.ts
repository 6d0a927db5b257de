/**
 * Issue 42, the console: an analyst builds "accounts per locale" and "registrations per month" in
 * Browse's aggregation mode, stage by stage with live previews, and sees them as charts whose
 * numbers are the service's own answer; faults land on the stage they name; the JSON pipeline is
 * two-way with the cards; the chart exports as PNG, SVG and CSV; the query library keeps the
 * pipeline. Accounts come from the seeder (five years of sign-ups over several locales).
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { AggregationPage } from '../pages/aggregation-page';
import { ConsolePage } from '../pages/console-page';
import { ObjectBrowserPage } from '../pages/object-browser-page';

const EMAIL = 'admin@demo.example';
const PASSWORD = 'a strong password';

let service: HeadlessService;
let dataDir = '';

test.setTimeout(240_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-agg-'));
  const seeded = spawnSync(
    process.execPath,
    [
      'dist/main/cli.js',
      'seed',
      '--data-dir',
      dataDir,
      '--accounts',
      '400',
      '--seed',
      '7',
      '--admin-password',
      PASSWORD,
    ],
    { encoding: 'utf8' },
  );
  expect(seeded.status, seeded.stderr).toBe(0);
  service = await startHeadlessService([], dataDir);
});

test.afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openAggregation(page: Page): Promise<{ agg: AggregationPage; shell: ConsolePage }> {
  const shell = new ConsolePage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shell.open(service.consoleUrl);
  await shell.login(EMAIL, PASSWORD);
  await expect(page.getByTestId('current-user')).toBeVisible();
  const browser = new ObjectBrowserPage(page);
  await browser.open();
  await browser.pickCollection('accounts');
  const agg = new AggregationPage(page);
  await agg.enter();
  return { agg, shell };
}

test('accounts per locale: built visually, previewed per stage, shown as a bar chart of the service answer', async ({
  page,
}) => {
  const { agg, shell } = await openAggregation(page);

  const group = await agg.addStage('$group');
  await agg.countPer(group, 'locale');
  const grouped = (await agg.previewOf(group)) as { _id?: string; count: number }[];
  expect(grouped.length).toBeGreaterThan(0);
  expect(grouped.every((doc) => typeof doc.count === 'number')).toBe(true);

  const sort = await agg.addStage('$sort');
  await agg.setText(sort, '{"count": -1}');
  const sorted = (await agg.previewOf(sort)) as { count: number }[];
  expect(sorted.map((d) => d.count)).toEqual([...sorted.map((d) => d.count)].sort((a, b) => b - a));

  await agg.run();
  await expect(agg.chart()).toHaveAttribute('data-kind', 'bar');
  const answer = await agg.serviceAnswer();
  await expect(page.getByTestId('agg-chart-bar')).toHaveCount(answer.length);
  expect(await agg.chartTable()).toEqual(answer.map((doc) => [String(doc._id ?? '(none)'), doc.count]));
  await expect(page.getByTestId('agg-chart-svg')).toHaveAccessibleName(/count per locale/);
  await agg.screenshots('aggregation-locale', agg.chart(), (theme) => shell.theme(theme));

  // Exports: CSV is the table; SVG and PNG are files of the chart.
  const csv = page.waitForEvent('download');
  await page.getByTestId('agg-chart-export-csv').click();
  const csvText = readFileSync(await (await csv).path(), 'utf8');
  expect(csvText.split('\r\n')[0]).toBe('locale,count');
  expect(csvText.split('\r\n').filter(Boolean)).toHaveLength(answer.length + 1);
  const svg = page.waitForEvent('download');
  await page.getByTestId('agg-chart-export-svg').click();
  const svgText = readFileSync(await (await svg).path(), 'utf8');
  expect(svgText).toContain('<svg');
  expect(svgText).not.toContain('var(--');
  const png = page.waitForEvent('download');
  await page.getByTestId('agg-chart-export-png').click();
  expect(
    readFileSync(await (await png).path())
      .subarray(0, 8)
      .toString('hex'),
  ).toBe('89504e470d0a1a0a');

  // Saved with the query library, and opened again from the find mode.
  await page.getByTestId('qb-library').locator('summary').click();
  await page.getByTestId('qb-save-name').fill('Accounts per locale');
  await page.getByTestId('qb-save').click();
  await expect(page.getByTestId('qb-saved')).toContainText('Accounts per locale');
  await page.getByTestId('browse-mode-find').click();
  await expect(page.getByTestId('qb-run')).toBeVisible();
  await page.getByTestId('qb-library').locator('summary').click();
  await page.getByTestId('qb-saved').getByText('Accounts per locale').click();
  await expect(agg.stages()).toHaveCount(2);
  await expect(agg.chart()).toHaveAttribute('data-kind', 'bar');

  // Copy as: the script is the same pipeline through aggregate().
  await page.getByTestId('qb-request').locator('summary').click();
  await expect(page.getByTestId('qb-request-url')).toContainText('pipeline=');
  await page.getByTestId('qb-copy-script').click();
  await expect(page.getByTestId('qb-copied')).toContainText('copied');
});

test('registrations per month: a line chart over time, switchable to bars', async ({ page }) => {
  const { agg, shell } = await openAggregation(page);
  const group = await agg.addStage('$group');
  await agg.countPer(group, 'created', 'month');
  const months = (await agg.previewOf(group)) as { _id: string }[];
  expect(months.every((doc) => /^\d{4}-\d{2}$/.test(doc._id))).toBe(true);

  await agg.run();
  await expect(agg.chart()).toHaveAttribute('data-kind', 'line');
  const answer = await agg.serviceAnswer();
  expect(answer.length).toBeGreaterThan(12);
  await expect(page.getByTestId('agg-chart-point')).toHaveCount(answer.length);
  const table = await agg.chartTable();
  const byMonth = new Map(answer.map((doc) => [doc._id as string, doc.count as number]));
  expect(table).toEqual([...byMonth.entries()].sort(([a], [b]) => a.localeCompare(b)));
  await agg.screenshots('aggregation-months', agg.chart(), (theme) => shell.theme(theme));

  await page.getByTestId('agg-chart-kind-bar').click();
  await expect(agg.chart()).toHaveAttribute('data-kind', 'bar');
  await expect(page.getByTestId('agg-chart-bar')).toHaveCount(answer.length);
  expect(page.url()).toContain('chart=bar');
  await page.getByTestId('agg-show-table').click();
  await expect(page.getByTestId('agg-table-row')).toHaveCount(answer.length);
});

test('faults land on their stage; the JSON pipeline and the cards are one pipeline', async ({ page }) => {
  const { agg, shell } = await openAggregation(page);
  const match = await agg.addStage('$match');
  await agg.setText(match, '{"locale": "en_US"}');
  const group = await agg.addStage('$group');
  // MongoDB's "$path" form is refused by the service, which names the stage and the spot.
  await agg.setText(group, '{"_id": "$gender", "count": {"$sum": 1}}');
  await expect(group.getByTestId('agg-stage-text-error')).toBeVisible();
  await expect(group.getByTestId('agg-stage-text-error-path')).toHaveText(/^pipeline\[1\]\.\$group\._id/);
  // The service's parser runs in the console too: Run waits until the stage is fixed.
  await expect(page.getByTestId('agg-run')).toBeDisabled();
  await expect(match.getByTestId('agg-stage-preview-count')).toBeVisible();
  // Nothing was run yet: the result under the stages says it is not theirs.
  await expect(page.getByTestId('agg-result-stale')).toContainText('no stage run yet');
  await agg.screenshots('aggregation-fault', group, (theme) => shell.theme(theme));
  await agg.setText(group, '{"_id": "gender", "count": {"$sum": 1}}');
  await expect(group.getByTestId('agg-stage-text-error')).toHaveCount(0);
  const genders = (await agg.previewOf(group)) as { _id: string }[];
  expect(genders.length).toBeGreaterThan(1);

  // Off: the stage stays, the JSON leaves it out, the previews skip it.
  await match.getByTestId('agg-stage-enabled').uncheck();
  await page.getByTestId('agg-tab-json').click();
  await expect(page.getByTestId('agg-json')).not.toHaveValue(/\$match/);
  await expect(page.getByTestId('agg-json')).toHaveValue(/"\$group"/);
  // JSON → cards: a new stage typed in the JSON becomes a card.
  const text = await page.getByTestId('agg-json').inputValue();
  await page.getByTestId('agg-json').fill(text.replace(/\]\s*$/, ', {"$limit": 2}]'));
  await page.getByTestId('agg-tab-stages').click();
  await expect(agg.stages()).toHaveCount(3);
  await expect(agg.stage(0)).toHaveAttribute('aria-label', /\(off\)/);
  await expect(agg.stage(2).getByTestId('agg-stage-operator')).toHaveValue('$limit');
  // Reorder: $limit first.
  await agg.stage(2).getByTestId('agg-stage-up').click();
  await agg.stage(1).getByTestId('agg-stage-up').click();
  await expect(agg.stage(0).getByTestId('agg-stage-operator')).toHaveValue('$limit');
  await agg.stage(0).getByTestId('agg-stage-delete').click();
  await expect(agg.stages()).toHaveCount(2);
  await agg.run();
  expect(decodeURIComponent(page.url())).toContain('off=0');
  await expect(page.getByTestId('agg-result-stale')).toHaveCount(0);
  // Switching a stage on changes what is sent: the result is the last run's until Run.
  await agg.stage(0).getByTestId('agg-stage-enabled').check();
  await expect(page.getByTestId('agg-result-stale')).toContainText('as last run');
});

test('birth years of patient files: numbers as a histogram, typed as JSON', async ({ page }) => {
  const { agg, shell } = await openAggregation(page);
  // Another collection keeps the mode, not the pipeline.
  await page.getByTestId('collection-picker').selectOption('c_patientfiles');
  await expect(page.getByTestId('agg-empty')).toBeVisible();
  await page.getByTestId('agg-tab-json').click();
  await page.getByTestId('agg-json').fill('[{"$group": {"_id": {"$year": "c_birth_date"}, "count": {"$sum": 1}}}]');
  await page.getByTestId('agg-tab-stages').click();
  await expect(agg.stages()).toHaveCount(1);
  await agg.previewOf(agg.stage(0));
  await agg.run();
  // Numbers: a histogram is offered (bars first when they are few whole numbers, as here).
  await expect(agg.chart()).toHaveAttribute('data-kind', /^(bar|histogram)$/);
  await page.getByTestId('agg-chart-kind-histogram').click();
  await expect(agg.chart()).toHaveAttribute('data-kind', 'histogram');
  const answer = await agg.serviceAnswer();
  const total = answer.reduce((sum, doc) => sum + (doc.count as number), 0);
  const bins = await agg.chartTable();
  expect(bins.length).toBeGreaterThan(3);
  expect(bins.reduce((sum, [, value]) => sum + value, 0)).toBe(total);
  await expect(page.getByTestId('agg-chart-bin')).toHaveCount(bins.length);
  await agg.screenshots('aggregation-birth-years', agg.chart(), (theme) => shell.theme(theme));
});
