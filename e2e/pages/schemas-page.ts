import { expect, type Page } from '@playwright/test';

/** Page object of the Schemas and Demo data screens. */
export class SchemasPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-schemas').click();
    await expect(this.page.getByTestId('schema-list')).toBeVisible();
  }

  async select(name: string): Promise<void> {
    await this.page.getByTestId('schema-item').filter({ hasText: name }).click();
  }

  pathRows() {
    return this.page.getByTestId('schema-path-row');
  }

  /** Fills the new-object form; the caller presses `schema-create`. */
  async fillNewObject(suffix: string, label: string, property: { suffix: string; type: string }): Promise<void> {
    await this.page.getByTestId('schema-new').click();
    await this.page.getByTestId('schema-name').fill(suffix);
    await this.page.getByTestId('schema-label').fill(label);
    await this.page.getByTestId('schema-prop-0-name').fill(property.suffix);
    await this.page.getByTestId('schema-prop-0-type').selectOption(property.type);
  }

  async addProperty(suffix: string, type: string): Promise<void> {
    await this.page.getByTestId('property-name').fill(suffix);
    await this.page.getByTestId('property-type').selectOption(type);
    await this.page.getByTestId('property-add').click();
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
