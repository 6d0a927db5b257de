import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of the roles screen (`#/roles`). */
export class RolesPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-roles').click();
    await expect(this.page.getByTestId('roles-list')).toBeVisible();
  }

  form(): Locator {
    return this.page.getByTestId('role-form');
  }

  async startNew(): Promise<void> {
    await this.page.getByTestId('role-new').click();
    await expect(this.form()).toBeVisible();
  }

  async fill(role: { name?: string; code?: string; scopes?: string[] }): Promise<void> {
    if (role.name !== undefined) await this.form().getByTestId('role-name').fill(role.name);
    if (role.code !== undefined) await this.form().getByTestId('role-code').fill(role.code);
    if (role.scopes !== undefined) await this.form().getByTestId('role-scopes').fill(role.scopes.join('\n'));
  }

  scopeChecks(): Locator {
    return this.form().getByTestId('role-scope-check-item');
  }

  async toggleInclude(code: string): Promise<void> {
    await this.form().getByTestId(`role-include-${code}`).click();
  }

  async save(): Promise<string> {
    await this.form().getByTestId('role-save').click();
    await expect(this.form().getByTestId('role-saved')).toBeVisible();
    await expect(this.page).toHaveURL(/#\/roles\?id=[0-9a-f]{24}/);
    return new URL(this.page.url()).hash.match(/id=([0-9a-f]{24})/)?.[1] ?? '';
  }

  item(name: string): Locator {
    return this.page.getByTestId('role-item').filter({ hasText: name });
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png` });
  }
}
