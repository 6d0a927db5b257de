import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of the signed-request composer (`#/signed-requests`). */
export class SignedRequestsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-signed-requests').click();
    await expect(this.page.getByTestId('signed-form')).toBeVisible();
  }

  async compose(request: { app: string; secret: string; method: string; path: string; as?: string; body?: string }) {
    await this.page.getByTestId('signed-app').selectOption(request.app);
    await this.page.getByTestId('signed-secret').fill(request.secret);
    await this.page.getByTestId('signed-method').selectOption(request.method);
    await this.page.getByTestId('signed-path').fill(request.path);
    if (request.body !== undefined) await this.page.getByTestId('signed-body').fill(request.body);
    await this.page.getByTestId('signed-as').fill(request.as ?? '');
  }

  async send(): Promise<void> {
    await this.page.getByTestId('signed-send').click();
    await expect(this.page.getByTestId('signed-status')).toBeVisible();
  }

  async replay(): Promise<void> {
    await this.page.getByTestId('signed-replay').click();
    await expect(this.page.getByTestId('replay-status')).toBeVisible();
  }

  /** Adds a query-parameter row (`kind` param) or a header row (`kind` header) at the end. */
  async addRow(kind: 'param' | 'header', name: string, value: string): Promise<void> {
    const editor = this.page.getByTestId(`signed-${kind}`);
    await editor.getByTestId(`signed-${kind}-add`).click();
    await editor.getByTestId(`signed-${kind}-name`).last().fill(name);
    await editor.getByTestId(`signed-${kind}-value`).last().fill(value);
  }

  rows(kind: 'param' | 'header'): Locator {
    return this.page.getByTestId(`signed-${kind}-row`);
  }

  value(name: 'command' | 'message' | 'timestamp' | 'nonce' | 'signature'): Locator {
    return this.page.getByTestId(`signed-${name}`);
  }

  async screenshot(name: string): Promise<void> {
    const size = this.page.viewportSize() ?? { width: 1280, height: 800 };
    await this.page.setViewportSize({ width: size.width, height: 1100 });
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png` });
    await this.page.setViewportSize(size);
  }
}
