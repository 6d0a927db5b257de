import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of Browse's aggregation mode: stage cards, the JSON pipeline, the result and its chart. */
export class AggregationPage {
  constructor(readonly page: Page) {}

  /** Switches Browse (a collection picked) to the aggregation mode. */
  async enter(): Promise<void> {
    await this.page.getByTestId('browse-mode-aggregate').click();
    await expect(this.page.getByTestId('agg-add-stage')).toBeVisible();
  }

  stages(): Locator {
    return this.page.getByTestId('agg-stage');
  }

  stage(index: number): Locator {
    return this.stages().nth(index);
  }

  /** Adds a stage at the end and picks its operator. */
  async addStage(operator: string): Promise<Locator> {
    const before = await this.stages().count();
    await this.page.getByTestId('agg-add-stage').click();
    const stage = this.stage(before);
    await stage.getByTestId('agg-stage-operator').selectOption(operator);
    return stage;
  }

  /** The `$group` card's form: count per a path, by a period for dates. */
  async countPer(stage: Locator, path: string, unit?: 'value' | 'year' | 'month' | 'day'): Promise<void> {
    await stage.getByTestId('agg-group-path').selectOption(path);
    if (unit) await stage.getByTestId('agg-group-unit').selectOption(unit);
  }

  async setText(stage: Locator, text: string): Promise<void> {
    await stage.getByTestId('agg-stage-text').fill(text);
  }

  /** Waits for a stage's preview to show its first documents; returns them as shown. */
  async previewOf(stage: Locator): Promise<unknown[]> {
    const preview = stage.getByTestId('agg-stage-preview');
    await expect(preview.getByTestId('agg-stage-preview-count')).toBeVisible();
    await expect(preview).not.toHaveAttribute('aria-busy', 'true');
    const texts = await preview.locator('.stage-preview__document').allTextContents();
    return texts.map((text) => JSON.parse(text) as unknown);
  }

  async run(): Promise<void> {
    await this.page.getByTestId('agg-run').click();
    await expect(this.page.getByTestId('agg-result-range')).not.toHaveText(/^\s*$/);
  }

  chart(): Locator {
    return this.page.getByTestId('agg-chart');
  }

  /** The chart's rows as its data table shows them: [label, value]. */
  async chartTable(): Promise<[string, number][]> {
    const toggle = this.page.getByTestId('agg-chart-table-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const rows = this.page.getByTestId('agg-chart-table').locator('tbody tr');
    return rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('th')?.textContent ?? '',
        Number(tr.querySelector('td')?.textContent ?? 'NaN'),
      ]),
    ) as Promise<[string, number][]>;
  }

  /** The pipeline of the result shown (the request's `pipeline`), answered by the service directly. */
  async serviceAnswer(): Promise<Record<string, unknown>[]> {
    const url = await this.requestUrl();
    return this.page.evaluate(async (requestUrl) => {
      const info = await (await fetch('/_service/info')).json();
      const key = info.data.orgs[0].consoleAppKey as string;
      const res = await fetch(requestUrl, { headers: { 'Service-Client-Key': key } });
      return ((await res.json()) as { data: Record<string, unknown>[] }).data;
    }, url);
  }

  async requestUrl(): Promise<string> {
    const menu = this.page.getByTestId('qb-request');
    if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
    const url = (await this.page.getByTestId('qb-request-url').textContent()) ?? '';
    await menu.locator('summary').click();
    return url;
  }

  /**
   * Screenshots at 1440×900 and 1024×700, light and dark, with `focus` scrolled into view (the
   * stages and the result share one scroll area): `<name>-<width>-<theme>.png` in e2e/artifacts.
   */
  async screenshots(name: string, focus: Locator, theme: (theme: 'light' | 'dark') => Promise<void>): Promise<void> {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await this.page.setViewportSize({ width, height });
      // Scroll the stages-and-result area only (scrollIntoView would move the page too).
      await focus.evaluate((element) => {
        const area = element.closest('[data-testid="agg-scroll"]');
        if (area) area.scrollTop += element.getBoundingClientRect().top - area.getBoundingClientRect().top - 8;
      });
      for (const name_ of ['light', 'dark'] as const) {
        await theme(name_);
        await this.page.screenshot({ path: `e2e/artifacts/${name}-${width}-${name_}.png` });
      }
    }
    await this.page.setViewportSize({ width: 1440, height: 900 });
    await theme('light');
  }
}
