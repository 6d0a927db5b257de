import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** Page object of the Configuration screen (features/configuration): export, import, deployments. */
export class ConfigurationPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByTestId('nav-configuration').click();
    await expect(this.page.getByTestId('config-tab-export')).toBeVisible();
  }

  async tab(name: 'export' | 'import' | 'deployments'): Promise<void> {
    await this.page.getByTestId(`config-tab-${name}`).click();
  }

  section(key: string): Locator {
    return this.page.locator(`[data-testid="manifest-section"][data-section="${key}"]`);
  }

  async setSection(key: string, on: boolean, names?: string): Promise<void> {
    const row = this.section(key);
    await row.getByTestId('manifest-section-on').setChecked(on);
    if (names !== undefined) await row.getByTestId('manifest-section-names').fill(names);
  }

  async manifest(): Promise<unknown> {
    return JSON.parse((await this.page.getByTestId('manifest-json').textContent()) ?? 'null');
  }

  /** Exports, then downloads the file; answers the download's saved path. */
  async exportAndDownload(): Promise<string> {
    await this.page.getByTestId('export-run').click();
    await expect(this.page.getByTestId('export-summary')).toContainText('complete');
    const [download]: [Download, void] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('export-download').click(),
    ]);
    const path = await download.path();
    if (!path) throw new Error('the download was not saved');
    return path;
  }

  /** Picks an import file; the dry run starts by itself. */
  async pickImportFile(path: string): Promise<void> {
    await this.page.getByTestId('import-file').setInputFiles(path);
    await expect(this.page.getByTestId('change-review')).toBeVisible();
  }

  changeItem(resource: string): Locator {
    return this.page.locator(`[data-testid="change-item"][data-resource="${resource}"]`);
  }

  async count(kind: 'added' | 'changed' | 'kept' | 'unchanged'): Promise<number> {
    return Number(await this.page.getByTestId(`count-${kind}`).getAttribute('data-count'));
  }

  async apply(): Promise<void> {
    await this.page.getByTestId('import-apply').click();
    await expect(this.page.getByTestId('import-done')).toBeVisible();
  }

  deploymentRow(name: string): Locator {
    return this.page.locator(`[data-testid="deployment-row"][data-name="${name}"]`);
  }

  /** On the sign-in screen: the org picker (every org of the data folder), then pick one. */
  orgPicker(): Locator {
    return this.page.getByTestId('org-picker');
  }

  /** Opens the org switcher in the header (components/OrgSwitcher.tsx). */
  async openOrgSwitcher(): Promise<void> {
    const switcher = this.page.getByTestId('org-switcher');
    if ((await switcher.getAttribute('open')) === null) await switcher.locator('summary').click();
    await expect(this.page.getByTestId('org-switcher-item').first()).toBeVisible();
  }

  orgSwitcherItem(code: string): Locator {
    return this.page.locator(`[data-testid="org-switcher-item"][data-org="${code}"]`);
  }

  /** Goes to another org from the header: its console, or its sign-in screen when not signed in there. */
  async switchOrg(code: string): Promise<void> {
    await this.openOrgSwitcher();
    await this.orgSwitcherItem(code).click();
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
  }
}
