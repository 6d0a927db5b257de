import { expect, type Download, type Page } from '@playwright/test';

/** Page object of the object browser: collection picker, query builder, result grid, drawer, export. */
export class ObjectBrowserPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-browse').click();
    await expect(this.page.getByTestId('collection-picker')).toBeVisible();
  }

  async pickCollection(collection: string): Promise<void> {
    await this.page.getByTestId('collection-picker').selectOption(collection);
    await expect(this.page.getByTestId('qb-run')).toBeVisible();
  }

  /** Opens the builder under the one-line query bar (it is folded by default). */
  async expandBuilder(): Promise<void> {
    const toggle = this.page.getByTestId('qb-toggle-builder');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(this.page.getByTestId('qb-json')).toBeVisible();
  }

  /** Adds a condition to the root group and fills it in. */
  async addCondition(property: string, operator: string, value?: string): Promise<void> {
    const conditions = this.page.getByTestId('qb-condition');
    await this.expandBuilder();
    const before = await conditions.count();
    await this.page.getByTestId('qb-add-condition').first().click();
    const row = conditions.nth(before);
    await row.getByTestId('qb-property').selectOption(property);
    await row.getByTestId('qb-operator').selectOption(operator);
    if (value !== undefined) await row.getByTestId('qb-value').fill(value);
  }

  async addSort(path: string, dir: 1 | -1): Promise<void> {
    await this.expandBuilder();
    await this.page.getByTestId('qb-sort-add').click();
    const key = this.page.getByTestId('qb-sort-key').last();
    await key.getByTestId('qb-sort-path').selectOption(path);
    await key.getByTestId('qb-sort-dir').selectOption(String(dir));
  }

  async setLimit(limit: number): Promise<void> {
    await this.expandBuilder();
    await this.page.getByTestId('qb-limit').fill(String(limit));
  }

  json() {
    return this.page.getByTestId('qb-json');
  }

  jsonError() {
    return this.page.getByTestId('qb-json-error');
  }

  async typeJson(text: string): Promise<void> {
    await this.expandBuilder();
    await this.json().fill(text);
  }

  /** Runs with the keyboard shortcut and waits for the page to settle. */
  async runWithShortcut(): Promise<void> {
    await this.page.getByTestId('qb-bar-where').focus();
    await this.page.keyboard.press('Control+Enter');
    await this.waitForRows();
  }

  async run(): Promise<void> {
    await this.page.getByTestId('qb-run').click();
    await this.waitForRows();
  }

  async waitForRows(): Promise<void> {
    await expect(this.page.getByTestId('result-range')).not.toHaveText(/^\s*$/);
    await expect(this.page.getByTestId('result-grid').or(this.page.getByTestId('result-empty'))).toBeVisible();
    await expect(this.page.locator('[data-testid="result-grid"][aria-busy="true"]')).toHaveCount(0);
  }

  requestUrl() {
    return this.page.getByTestId('qb-request-url');
  }

  /** `_id`s of the rows in the grid, top to bottom (all rows must be in view). */
  async shownIds(): Promise<string[]> {
    return this.page.getByTestId('result-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
  }

  /** The service's answer for the URL the browser shows, fetched as the signed-in console. */
  async apiIdsForShownRequest(): Promise<string[]> {
    const url = (await this.requestUrl().textContent()) ?? '';
    return this.page.evaluate(async (requestUrl) => {
      const info = await (await fetch('/_service/info')).json();
      const key = info.data.orgs[0].consoleAppKey as string;
      const res = await fetch(requestUrl, { headers: { 'Service-Client-Key': key } });
      const body = (await res.json()) as { data: { _id: string }[] };
      return body.data.map((r) => r._id);
    }, url);
  }

  async next(): Promise<void> {
    await this.page.getByTestId('result-next').click();
    await this.waitForRows();
  }

  async previous(): Promise<void> {
    await this.page.getByTestId('result-prev').click();
    await this.waitForRows();
  }

  async openRow(index: number): Promise<void> {
    await this.page.getByTestId('result-row').nth(index).click();
    await expect(this.page.getByTestId('record-drawer')).toBeVisible();
  }

  async export(format: 'csv' | 'ndjson'): Promise<Download> {
    const menu = this.page.getByTestId('export-menu');
    if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
    await this.page.getByTestId('export-format').selectOption(format);
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId('export-button').click();
    return download;
  }

  /** A toolbar menu (`<details>`): column-picker, export-menu, qb-paths, qb-library, qb-request. */
  menu(testId: string) {
    return this.page.getByTestId(testId);
  }

  async openMenu(testId: string): Promise<void> {
    const menu = this.menu(testId);
    if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
    await expect(menu).toHaveAttribute('open', '');
  }

  async expectMenuClosed(testId: string): Promise<void> {
    await expect(this.menu(testId)).not.toHaveAttribute('open', /.*/);
  }

  /** Whether the document scrolls (it must not: the grid is the one scroll area). */
  async pageScrolls(): Promise<{ scrollHeight: number; innerHeight: number; scrollY: number }> {
    return this.page.evaluate(() => ({
      scrollHeight: document.scrollingElement?.scrollHeight ?? 0,
      innerHeight: window.innerHeight,
      scrollY: window.scrollY,
    }));
  }

  /**
   * What keeps the element from being wholly in view: '' when it is inside the window and inside
   * every scroll container around it (seen without scrolling anything; a pixel's slack for the
   * sub-pixel offsets of nested scroll areas), else the container and boxes.
   */
  async clippedBy(testId: string, index = 0): Promise<string> {
    return this.page
      .getByTestId(testId)
      .nth(index)
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        type Edges = { left: number; right: number; top: number; bottom: number };
        const text = (e: Edges) => [e.left, e.top, e.right, e.bottom].map((n) => n.toFixed(1)).join(',');
        const inside = (outer: Edges) =>
          box.left >= outer.left - 1 &&
          box.right <= outer.right + 1 &&
          box.top >= outer.top - 1 &&
          box.bottom <= outer.bottom + 1;
        const view = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
        if (box.width === 0 || !inside(view)) return `window: ${text(box)} in ${text(view)}`;
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          // The container's padding box: its border box less the borders and any scrollbar.
          const outer = parent.getBoundingClientRect();
          const left = outer.left + parent.clientLeft;
          const top = outer.top + parent.clientTop;
          const edges = { left, top, right: left + parent.clientWidth, bottom: top + parent.clientHeight };
          if (!inside(edges)) return `.${parent.className}: ${text(box)} in ${text(edges)}`;
        }
        return '';
      });
  }

  /** The grid's vertical scroll offset in pixels. */
  async gridScrollTop(): Promise<number> {
    return this.page.getByTestId('result-grid').evaluate((grid) => grid.scrollTop);
  }

  /** Scrolls the grid to its last row, as a wheel would, and waits until it is there. */
  async scrollGridToBottom(): Promise<void> {
    const grid = this.page.getByTestId('result-grid');
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => this.gridScrollTop()).toBeGreaterThan(100);
  }

  /** The `aria-rowindex` of the first data row wholly in view (2 is row 1: the header is 1). */
  async firstRowInView(): Promise<number> {
    return this.page.getByTestId('result-grid').evaluate((grid) => {
      const header = grid.querySelector('.rgrid__header')?.getBoundingClientRect();
      const top = header ? header.bottom : grid.getBoundingClientRect().top;
      const rows = [...grid.querySelectorAll<HTMLElement>('[data-testid="result-row"]')]
        .filter((row) => row.getBoundingClientRect().top >= top - 0.5)
        .map((row) => Number(row.getAttribute('aria-rowindex')));
      return Math.min(...rows);
    });
  }

  /** Types into a bar as a person does, key by key (so completion follows the cursor). */
  async typeInBar(which: 'where' | 'sort', text: string): Promise<void> {
    const bar = this.page.getByTestId(`qb-bar-${which}`);
    await bar.fill('');
    await bar.pressSequentially(text);
  }

  /** The completion offered under a text control (`qb-bar-where`, `qb-bar-sort`, `qb-json`). */
  completionOptions(testId: string) {
    return this.page.getByTestId(`${testId}-completion`).getByTestId('completion-option');
  }

  /** A line of the record drawer's tree, by its path (`name.first`, `roles.0`). */
  treeNode(path: string) {
    return this.page.locator(`[data-testid="tree-node"][data-path="${path}"]`).first();
  }

  /** The grid's header paths, left to right. */
  async headerPaths(): Promise<string[]> {
    return this.page
      .getByTestId('result-header')
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-path') ?? ''));
  }

  header(path: string) {
    return this.page.locator(`[data-testid="result-header"][data-path="${path}"]`);
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
