import { expect, type Page } from '@playwright/test';

/** Page object of the record editor (create / edit / delete) in the object browser. */
export class RecordsPage {
  constructor(readonly page: Page) {}

  async startCreate(): Promise<void> {
    await this.page.getByTestId('record-new').click();
    await expect(this.page.getByTestId('record-editor')).toBeVisible();
  }

  field(path: string) {
    return this.page.getByTestId(`record-field-${path}`);
  }

  fieldError(path: string) {
    return this.page.locator('.field', { has: this.field(path) }).getByTestId('record-field-error');
  }

  async save(): Promise<void> {
    await this.page.getByTestId('record-save').click();
  }

  async edit(): Promise<void> {
    await this.page.getByTestId('record-edit').click();
    await expect(this.page.getByTestId('record-editor')).toBeVisible();
  }

  async delete(): Promise<void> {
    await this.page.getByTestId('record-delete').click();
    await this.page.getByTestId('record-delete-confirm').click();
    await expect(this.page.getByTestId('record-drawer')).toHaveCount(0);
  }

  /** GET through the API as the signed-in console. */
  async apiGet(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    return this.page.evaluate(async (p) => {
      const info = await (await fetch('/_service/info')).json();
      const key = info.data.orgs[0].consoleAppKey as string;
      const res = await fetch(`/demo/v2/${p}`, { headers: { 'Service-Client-Key': key } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }, path);
  }
}
