import { expect, type Page } from '@playwright/test';

/** Page object of the Token lab (features/tokens). */
export class TokensPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-tokens').click();
    await expect(this.page.getByTestId('mint-form')).toBeVisible();
  }

  /** The account combobox: types `search`, then picks the first match with the keyboard. */
  async pickAccount(search: string): Promise<void> {
    const box = this.page.getByTestId('lab-account');
    await box.fill(search);
    await expect(this.page.getByTestId('lab-account-option').first()).toBeVisible();
    await box.press('ArrowDown');
    await box.press('Enter');
    await expect(this.page.getByTestId('lab-account-id')).toBeVisible();
  }

  async pickApp(label: string): Promise<void> {
    const select = this.page.getByTestId('lab-app');
    const value = await select.locator('option', { hasText: label }).getAttribute('value');
    await select.selectOption(value ?? '');
  }

  async pane(name: 'mint' | 'decode' | 'verify'): Promise<void> {
    await this.page.getByTestId(`pane-${name}`).click();
  }

  async setScope(text: string): Promise<void> {
    await this.page.getByTestId('mint-scope').fill(text);
  }

  /** Mints with the form as it is; the token is shown in the minted dialog, left open. */
  async mintShown(): Promise<string> {
    await this.page.getByTestId('mint-submit').click();
    const shown = this.page.getByTestId('minted-token');
    await expect(this.page.getByTestId('minted')).toBeVisible();
    await expect(shown).not.toHaveValue('');
    return shown.inputValue();
  }

  /** Mints with the form as it is, closes the minted dialog ("I have copied it") and answers the token. */
  async mint(): Promise<string> {
    const token = await this.mintShown();
    await this.page.getByTestId('minted-done').click();
    await expect(this.page.getByTestId('minted')).toHaveCount(0);
    return token;
  }

  claim(name: string) {
    return this.page.locator(`[data-testid="claim-row"][data-claim="${name}"]`);
  }

  async verify(): Promise<void> {
    await this.page.getByTestId('verify-run').click();
    await expect(this.page.getByTestId('verify-report')).toBeVisible();
  }

  check(id: string) {
    return this.page.getByTestId(`verify-check-${id}`);
  }

  async tryIt(): Promise<void> {
    await this.page.getByTestId('verify-try').click();
    await expect(this.page.getByTestId('try-result')).toBeVisible();
  }

  storedRow(jti: string) {
    return this.page.locator(`[data-testid="stored-row"][data-jti="${jti}"]`);
  }
}

/** The payload of a JWT, decoded in the test (not trusted, just read). */
export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}
