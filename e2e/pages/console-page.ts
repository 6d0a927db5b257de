import { expect, type Page } from '@playwright/test';

/** Page object of the console shell: setup, login, the accounts grid, logout. */
export class ConsolePage {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.page.getByTestId('app-ready')).toBeAttached();
  }

  async completeSetup(org: string, email: string, password: string): Promise<void> {
    await expect(this.page.getByTestId('setup-form')).toBeVisible();
    await this.page.getByTestId('setup-org').fill(org);
    await this.page.getByTestId('setup-email').fill(email);
    await this.page.getByTestId('setup-password').fill(password);
    await this.page.getByTestId('setup-submit').click();
  }

  async login(email: string, password: string): Promise<void> {
    await expect(this.page.getByTestId('login-form')).toBeVisible();
    await this.page.getByTestId('login-email').fill(email);
    await this.page.getByTestId('login-password').fill(password);
    await this.page.getByTestId('login-submit').click();
  }

  grid() {
    return this.page.getByTestId('accounts-grid');
  }

  rows() {
    return this.page.getByTestId('grid-row');
  }

  async logout(): Promise<void> {
    await this.page.getByTestId('logout-button').click();
    await expect(this.page.getByTestId('login-form')).toBeVisible();
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
