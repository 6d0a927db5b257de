import { expect, type Page } from '@playwright/test';

/** Page object of the Scripts screen (features/scripts). */
export class ScriptsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-scripts').click();
    await expect(this.page.getByTestId('script-editor')).toBeVisible();
  }

  editor() {
    return this.page.getByTestId('script-editor-content');
  }

  /** Replaces the editor's text as typed input (so CodeMirror's own input path is used). */
  async write(text: string): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
  }

  async setArguments(json: string): Promise<void> {
    await this.page.getByTestId('script-arguments').fill(json);
  }

  /** Runs with Ctrl/Cmd+Enter from the editor and waits until the run settles. */
  async runWithKeyboard(): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('ControlOrMeta+Enter');
    await this.settled();
  }

  async run(): Promise<void> {
    await this.page.getByTestId('run-submit').click();
    await this.settled();
  }

  async settled(): Promise<void> {
    await expect(this.output()).not.toHaveAttribute('data-state', 'running', { timeout: 15_000 });
  }

  output() {
    return this.page.getByTestId('run-output');
  }

  result() {
    return this.page.getByTestId('run-result');
  }

  traceLine(line: number) {
    return this.page.locator(`[data-testid="trace-line"][data-line="${line}"]`);
  }

  errorLine() {
    return this.page.getByTestId('editor-error-line');
  }

  /** The line the editor's cursor is on. */
  activeLine() {
    return this.page.getByTestId('script-editor').locator('.cm-activeLine');
  }

  async saveAs(fields: {
    type: 'library' | 'route' | 'trigger' | 'job';
    name: string;
    label?: string;
    method?: string;
    path?: string;
    object?: string;
    event?: string;
    cron?: string;
  }) {
    await this.page.getByTestId('save-type').selectOption(fields.type);
    await this.page.getByTestId('save-name').fill(fields.name);
    if (fields.label !== undefined) await this.page.getByTestId('save-label').fill(fields.label);
    if (fields.method) await this.page.getByTestId('save-method').selectOption(fields.method);
    if (fields.path !== undefined) await this.page.getByTestId('save-path').fill(fields.path);
    if (fields.object !== undefined) await this.page.getByTestId('save-object').selectOption(fields.object);
    if (fields.event !== undefined) await this.page.getByTestId('save-event').selectOption(fields.event);
    if (fields.cron !== undefined) await this.page.getByTestId('save-cron').fill(fields.cron);
    await this.page.getByTestId('save-submit').click();
    await expect(this.page.getByTestId('save-done')).toBeVisible();
  }

  /** The toolbar's "Unsaved changes" status (absent when the editor and form equal what is saved). */
  dirty() {
    return this.page.getByTestId('script-dirty');
  }

  /** "Saved", "Unsaved changes" or "Not saved yet" beside the save form's heading. */
  saveState() {
    return this.page.getByTestId('save-state');
  }

  newItem() {
    return this.page.getByTestId('library-new-item');
  }

  confirmDialog() {
    return this.page.getByTestId('confirm-dialog');
  }

  /** Answers the open "discard?" question. */
  async answer(discard: boolean): Promise<void> {
    await expect(this.confirmDialog()).toBeVisible();
    await this.page.getByTestId(discard ? 'confirm-ok' : 'confirm-cancel').click();
    await expect(this.confirmDialog()).toHaveCount(0);
  }

  /** Picks an account in a combobox by typing part of it, moving down to it and pressing Enter. */
  async pickAccount(testId: string, text: string, match: string): Promise<void> {
    const box = this.page.getByTestId(testId);
    await box.fill(text);
    const option = this.page.getByTestId(`${testId}-option`).filter({ hasText: match });
    await expect(option).toHaveCount(1);
    const options = await this.page.getByTestId(`${testId}-option`).allTextContents();
    const index = options.findIndex((t) => t.includes(match));
    // No option is active until an arrow key says so (components/combobox-keys.ts): the first
    // ArrowDown reaches the first match.
    for (let i = 0; i <= index; i++) await box.press('ArrowDown');
    await box.press('Enter');
  }

  libraryItem(name: string) {
    return this.page.locator(`[data-testid="library-item"][data-name="${name}"]`);
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
