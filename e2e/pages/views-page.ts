import { expect, type Locator, type Page } from '@playwright/test';
import { ConsolePage } from './console-page';

/** Page object of the Views screen (features/views) and the "Save as view" dialog of Browse. */
export class ViewsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-views').click();
    await expect(this.page.getByTestId('views-list')).toBeVisible();
  }

  item(name: string): Locator {
    return this.page.locator(`[data-testid="view-item"][data-name="${name}"]`);
  }

  async select(name: string): Promise<void> {
    await this.item(name).click();
    await expect(this.page.getByTestId('view-runner')).toBeVisible();
  }

  async startNew(): Promise<void> {
    await this.page.getByTestId('view-new').click();
    await expect(this.page.getByTestId('view-form')).toBeVisible();
  }

  async fill(fields: { name?: string; label?: string; source?: string; where?: string; sort?: string; acl?: string }) {
    const form = this.page.getByTestId('view-form');
    if (fields.name !== undefined) await form.getByTestId('view-name').fill(fields.name);
    if (fields.label !== undefined) await form.getByTestId('view-label').fill(fields.label);
    if (fields.source !== undefined) await form.getByTestId('view-source').selectOption(fields.source);
    if (fields.where !== undefined) await form.getByTestId('view-where').fill(fields.where);
    if (fields.sort !== undefined) await form.getByTestId('view-sort').fill(fields.sort);
    if (fields.acl !== undefined) await form.getByTestId('view-acl').fill(fields.acl);
  }

  async save(): Promise<void> {
    await this.page.getByTestId('view-save').click();
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`view-error-${field}`);
  }

  async run(variables: Record<string, string>, limit?: number): Promise<void> {
    for (const [name, value] of Object.entries(variables)) {
      await this.page.locator(`[data-testid="view-var"][data-name="${name}"]`).fill(value);
    }
    if (limit !== undefined) await this.page.getByTestId('view-run-limit').fill(String(limit));
    await this.page.getByTestId('view-run').click();
    await expect(this.page.getByTestId('view-run-range')).toBeVisible();
  }

  rows(): Locator {
    return this.page.getByTestId('view-runner').getByTestId('result-row');
  }

  /** The `_id` of each row shown, in order. */
  async rowIds(): Promise<string[]> {
    await expect(this.rows().first()).toBeVisible();
    return this.rows().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
  }

  /** The URL shown (without the leading `GET `). */
  async url(): Promise<string> {
    return ((await this.page.getByTestId('view-url').textContent()) ?? '').replace(/^GET /, '');
  }

  /** Mints a view token for the signed-in account and returns it (read from the dialog, then closed). */
  async mintToken(): Promise<string> {
    await this.page.getByTestId('view-token-mint').click();
    const value = this.page.getByTestId('view-token-value');
    await expect(value).toBeVisible();
    return (await value.textContent()) ?? '';
  }

  async closeTokenDialog(): Promise<void> {
    await this.page.getByTestId('view-token-done').click();
    await expect(this.page.getByTestId('view-token-dialog')).toHaveCount(0);
  }

  // Declared variables (editor) and the run form's fields --------------------------------------

  /** A variable's row in the editor (its default and description). */
  variable(name: string): Locator {
    return this.page.locator(`[data-testid="view-variable"][data-name="${name}"]`);
  }

  async declareVariable(name: string, fields: { defaultValue?: string; description?: string }): Promise<void> {
    const row = this.variable(name);
    if (fields.defaultValue !== undefined) await row.getByTestId('view-variable-default').fill(fields.defaultValue);
    if (fields.description !== undefined) await row.getByTestId('view-variable-description').fill(fields.description);
  }

  /** A variable's box on the run form. */
  runField(name: string): Locator {
    return this.page.locator(`[data-testid="view-var"][data-name="${name}"]`);
  }

  /** What the run form says a variable wants (the view's description, else the derived hint). */
  runHint(name: string): Locator {
    return this.page.locator(`[data-testid="view-var-hint"][data-name="${name}"]`);
  }

  /**
   * `<name>-<width>-<theme>.png` at 1440×900 and 1024×700, light and dark, with `target` scrolled
   * to the top of the view each time (a narrower window moves it). Ends at 1440×900, light.
   */
  async screenshotsOf(target: Locator, name: string): Promise<void> {
    const console_ = new ConsolePage(this.page);
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await this.page.setViewportSize({ width, height });
      await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      for (const theme of ['light', 'dark'] as const) {
        await console_.theme(theme);
        await this.screenshot(`${name}-${width}-${theme}`);
      }
    }
    await this.page.setViewportSize({ width: 1440, height: 900 });
    await console_.theme('light');
  }

  // Save as view (Browse) ---------------------------------------------------------------------

  async openSaveAsView(): Promise<Locator> {
    await this.page.getByTestId('save-as-view').click();
    const dialog = this.page.getByTestId('save-view-dialog');
    await expect(dialog).toBeVisible();
    return dialog;
  }

  condition(dialog: Locator, label: string): Locator {
    return dialog.locator(`[data-testid="save-view-condition"][data-label="${label.replaceAll('"', '\\"')}"]`);
  }

  async makeVariable(dialog: Locator, label: string, name: string): Promise<void> {
    const row = this.condition(dialog, label);
    await row.getByTestId('save-view-variable').check();
    await row.getByTestId('save-view-variable-name').fill(name);
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
