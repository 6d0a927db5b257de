import { expect, type Page } from '@playwright/test';

/** Page object of the Outbox & sessions screen (features/outbox). */
export class OutboxPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-outbox').click();
    await expect(this.page.getByTestId('outbox')).toBeVisible();
    await expect(this.page.getByTestId('sessions')).toBeVisible();
  }

  messages() {
    return this.page.getByTestId('outbox-message');
  }

  sessionRows() {
    return this.page.getByTestId('session-row');
  }

  async endSessionOf(accountId: string): Promise<void> {
    const row = this.page.locator(`[data-testid="session-row"][data-account="${accountId}"]`);
    await row.getByTestId('session-end').click();
    await row.getByTestId('session-end-confirm').click();
    await expect(row).toHaveCount(0);
  }
}
