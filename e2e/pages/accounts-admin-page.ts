import { expect, type Locator, type Page } from '@playwright/test';
import { objectsApi, type ObjectsApi } from './objects-api';

/** Page object of the account administration screen (`#/accounts-admin`). */
export class AccountsAdminPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-accounts-admin').click();
    await expect(this.page.getByTestId('admin-accounts-list')).toBeVisible();
  }

  async create(account: { email: string; password: string; first?: string; last?: string }): Promise<string> {
    await this.page.getByTestId('admin-account-new').click();
    const form = this.page.getByTestId('new-account-form');
    await form.getByTestId('new-account-email').fill(account.email);
    await form.getByTestId('new-account-password').fill(account.password);
    if (account.first) await form.getByTestId('new-account-first').fill(account.first);
    if (account.last) await form.getByTestId('new-account-last').fill(account.last);
    await form.getByTestId('new-account-submit').click();
    await expect(this.detail()).toContainText(account.email);
    return (await this.detail().getAttribute('data-account-id')) ?? '';
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId('admin-accounts-search').fill(text);
  }

  row(email: string): Locator {
    return this.page.getByTestId('admin-account-row').filter({ hasText: email });
  }

  async select(email: string): Promise<void> {
    await this.row(email).getByRole('button', { name: email }).click();
    await expect(this.detail()).toContainText(email);
  }

  detail(): Locator {
    return this.page.getByTestId('account-detail');
  }

  async toggleRole(code: string): Promise<void> {
    await this.detail().getByTestId(`account-role-${code}`).click();
  }

  async saveRoles(): Promise<void> {
    await this.detail().getByTestId('account-roles-save').click();
    await expect(this.detail().getByTestId('account-action-done')).toHaveText('Roles saved.');
  }

  async action(testId: 'account-verify' | 'account-lock' | 'account-unlock' | 'account-reset-2fa'): Promise<void> {
    await this.detail().getByTestId(testId).click();
    await expect(this.detail().getByTestId('account-action-done')).toBeVisible();
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png` });
  }
}

/**
 * An API client for checks made beside the console. The service ends an account's other sessions
 * at login (docs/sessions.md), so it signs in as a second administrator, created for the purpose,
 * and the console's own session stays valid.
 */
export async function checkerApi(baseUrl: string, email: string, password: string): Promise<ObjectsApi> {
  const first = await objectsApi(baseUrl, email, password);
  const created = await first.send('POST', 'accounts', {
    email: 'checker@demo.test',
    password: 'checker password 1',
    roles: ['000000000000000000000004'],
  });
  if (created.status !== 200) throw new Error(`could not create the checker admin: ${JSON.stringify(created.body)}`);
  return objectsApi(baseUrl, 'checker@demo.test', 'checker password 1');
}
