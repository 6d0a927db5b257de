import { expect, type Locator, type Page } from '@playwright/test';

export interface RowInput {
  operation: 'create' | 'read' | 'update' | 'delete' | 'execute';
  type: string;
  id?: string;
  path?: string;
}

/** Page object of the scope tester (`#/scope-tester`). */
export class ScopeTesterPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-scope-tester').click();
    await expect(this.page.getByTestId('chain-parser')).toBeVisible();
  }

  async parse(chain: string): Promise<void> {
    await this.page.getByTestId('chain-input').fill(chain);
  }

  segments(): Locator {
    return this.page.getByTestId('chain-segment');
  }

  async setChains(chains: string[]): Promise<void> {
    await this.page.getByTestId('tester-source-chains').click();
    await this.page.getByTestId('tester-chains').fill(chains.join('\n'));
  }

  async toggleRole(code: string): Promise<void> {
    await this.page.getByTestId(`tester-role-${code}`).click();
  }

  rows(): Locator {
    return this.page.getByTestId('tester-row');
  }

  async addRow(row: RowInput): Promise<void> {
    await this.page.getByTestId('tester-add-row').click();
    const added = this.rows().last();
    await added.getByTestId('row-operation').selectOption(row.operation);
    await added.getByTestId('row-type').selectOption(row.type);
    await added.getByTestId('row-instance').fill(row.id ?? '');
    await added.getByTestId('row-path').fill(row.path ?? '');
  }

  /** Verdicts as the tester shows them, one per row. */
  async testerVerdicts(): Promise<string[]> {
    return this.rows()
      .getByTestId('row-verdict')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-verdict') ?? ''));
  }

  async checkAgainstService(): Promise<string[]> {
    await this.page.getByTestId('tester-check-service').click();
    await expect(this.rows().getByTestId('row-service')).toHaveCount(await this.rows().count());
    return this.rows()
      .getByTestId('row-service')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-verdict') ?? ''));
  }

  async saveCase(name: string): Promise<void> {
    await this.page.getByTestId('case-name').fill(name);
    await this.page.getByTestId('case-save').click();
    await expect(this.caseItem(name)).toBeVisible();
  }

  caseItem(name: string): Locator {
    return this.page.locator(`[data-testid="case-item"][data-name="${name}"]`);
  }

  /** The screen scrolls inside the shell, so the whole of it is shown in a tall viewport. */
  async screenshot(name: string): Promise<void> {
    const size = this.page.viewportSize() ?? { width: 1280, height: 800 };
    await this.page.setViewportSize({ width: size.width, height: 1500 });
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png` });
    await this.page.setViewportSize(size);
  }
}
