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

  /**
   * Sets the console's theme as its toggle does (saved choice, `data-theme`, color-scheme) — also
   * while a modal dialog keeps the toggle out of reach.
   */
  async theme(theme: 'light' | 'dark'): Promise<void> {
    await this.page.evaluate((next) => {
      localStorage.setItem('console.theme', next);
      document.documentElement.dataset.theme = next;
      document.documentElement.style.colorScheme = next;
    }, theme);
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', theme);
  }

  /**
   * The screen as it is now at 1440×900 and 1024×700, light and dark: `<name>-1440-light.png`, …
   * Ends at 1440×900, light.
   */
  async screenshots(name: string): Promise<void> {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await this.page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await this.theme(theme);
        await this.screenshot(`${name}-${width}-${theme}`);
      }
    }
    await this.page.setViewportSize({ width: 1440, height: 900 });
    await this.theme('light');
  }
}
