import { expect, type Page } from '@playwright/test';
import { ConsolePage } from './console-page';

/** Page object of the desktop Connections screen and the header's active-connection badge. */
export class ConnectionsPage extends ConsolePage {
  constructor(page: Page) {
    super(page);
  }

  badge() {
    return this.page.getByTestId('connection-badge');
  }

  async openScreen(): Promise<void> {
    await this.page.getByRole('link', { name: 'Connections', exact: true }).click();
    await expect(this.page.getByTestId('connections-screen')).toBeVisible();
  }

  async add(name: string, url: string): Promise<void> {
    await this.page.getByTestId('connection-name').fill(name);
    await this.page.getByTestId('connection-url').fill(url);
    await this.page.getByTestId('connection-kind-session').check();
    await this.page.getByTestId('connection-save').click();
    await expect(this.page.getByTestId(`connection-${name}`)).toBeVisible();
  }

  async connect(name: string): Promise<void> {
    await this.page.getByTestId(`connection-${name}`).getByTestId('connection-connect').click();
  }
}
