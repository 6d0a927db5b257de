import { objectsApi, type ObjectsApi } from './objects-api';
import { expect, type Page } from '@playwright/test';

/** Page object of the Applications screen (features/apps). */
export class AppsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-apps').click();
    await expect(this.page.getByTestId('app-list')).toBeVisible();
  }

  item(label: string) {
    return this.page.getByTestId('app-item').filter({ hasText: label });
  }

  async select(label: string): Promise<void> {
    await this.item(label).click();
    await expect(this.page.getByTestId('app-title')).toHaveText(label);
  }

  /** Opens the new-app form and fills kind and label; the caller may set more, then `save()`. */
  async startCreate(kind: 'session' | 'signing', label: string): Promise<void> {
    await this.page.getByTestId('app-new').click();
    await this.page.getByTestId(`app-kind-${kind}`).click();
    await this.page.getByTestId('app-label').fill(label);
  }

  async save(): Promise<void> {
    await this.page.getByTestId('app-save').click();
  }

  /** Opens one of the selected app's tabs. */
  async tab(tab: 'settings' | 'keys' | 'tokens' | 'sessions'): Promise<void> {
    await this.page.getByTestId(`app-tab-${tab}`).click();
    await expect(this.page.getByTestId(`app-panel-${tab}`)).toBeVisible();
  }

  secretDialog() {
    return this.page.getByTestId('secret-dialog');
  }

  /** Reads the once-shown secret and closes the dialog. */
  async takeSecret(): Promise<string> {
    await expect(this.secretDialog()).toBeVisible();
    await expect(this.secretDialog()).toContainText('won’t see this again');
    const secret = (await this.page.getByTestId('secret-value').textContent()) ?? '';
    await this.page.getByTestId('secret-done').click();
    await expect(this.secretDialog()).toHaveCount(0);
    return secret;
  }

  fieldError(testId: string) {
    return this.page
      .locator('.field, span')
      .filter({ has: this.page.getByTestId(testId) })
      .getByTestId('field-error');
  }

  /** The principal combobox of the settings form: types `search` and picks the first match with the keyboard. */
  async pickPrincipal(search: string): Promise<void> {
    const box = this.page.getByTestId('app-principalId');
    await box.fill(search);
    await expect(this.page.getByTestId('app-principalId-option').first()).toBeVisible();
    await box.press('ArrowDown');
    await box.press('Enter');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
  }

  async regenerateRsa(label: string): Promise<void> {
    await this.tab('keys');
    await this.page.getByTestId('regenerate-rsa').click();
    const dialog = this.page.getByTestId('rsa-dialog');
    await expect(dialog.getByTestId('rotation-preview')).toBeVisible();
    await expect(dialog.getByTestId('rsa-confirm')).toBeDisabled();
    await dialog.getByTestId('rsa-confirm-text').fill(label);
    await dialog.getByTestId('rsa-confirm').click();
    await expect(this.page.getByTestId('rsa-done')).toBeVisible();
  }
}

/** `GET /<org>/v2/<path>` with a bearer token and no cookie, as any client would call it. */
export async function bearerGet(
  baseUrl: string,
  token: string,
  path = 'accounts/me',
  org = 'demo',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/${org}/v2/${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The built-in role of org administrators (docs/scopes.md). */
export const ORG_ADMIN_ROLE = '000000000000000000000004';

/**
 * A Node-side API client signed in as a second administrator. The console's admin cannot share
 * its account with it: a new login ends the account's other sessions (docs/sessions.md).
 * Call before the console signs in (the first admin's API session is ended by that sign-in).
 */
export async function secondAdminApi(baseUrl: string, email: string, password: string): Promise<ObjectsApi> {
  const first = await objectsApi(baseUrl, email, password);
  const created = await first.send('POST', 'accounts', {
    email: 'ops@demo.test',
    password: 'ops password 123',
    name: { first: 'Olga', last: 'Ops' },
    roles: [ORG_ADMIN_ROLE],
  });
  if (created.status !== 200) throw new Error(`second admin: ${JSON.stringify(created.body)}`);
  return objectsApi(baseUrl, 'ops@demo.test', 'ops password 123');
}
