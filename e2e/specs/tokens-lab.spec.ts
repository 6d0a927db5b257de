/**
 * Issue #44 item 12: the Token lab's account picker is an ARIA combobox (arrows, Enter, Escape),
 * the scope starts empty (never `*` unasked), a token's parts are coloured as on jwt.io with
 * readable contrast in both themes, and "Edit and re-mint" fills the mint form from a decoded token.
 */
import { expect, test, type Locator } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { secondAdminApi } from '../pages/apps-page';
import { ConsolePage } from '../pages/console-page';
import { TokensPage, jwtPayload } from '../pages/tokens-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});

/** WCAG contrast of an element's text colour on the background it is drawn on (the nearest opaque one). */
async function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    const rgb = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const [R, G, B] = [r, g, b].map((c) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    let node: Element | null = el;
    let background = 'rgb(255, 255, 255)';
    while (node) {
      const bg = getComputedStyle(node).backgroundColor;
      const parts = rgb(bg);
      if (parts.length === 3 || (parts.length === 4 && parts[3] === 1)) {
        background = bg;
        break;
      }
      node = node.parentElement;
    }
    const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(rgb(background))].sort((x, y) => y - x);
    return (a! + 0.05) / (b! + 0.05);
  });
}

test('combobox picker, empty scope, coloured token parts and edit-and-re-mint', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const api = await secondAdminApi(service.url, EMAIL, PASSWORD);
  const app = await api.send<{ key: string }>('POST', 'apps', { label: 'Partner API', kind: 'signing' });
  const ids: Record<string, string> = {};
  for (const [first, last] of [
    ['Bob', 'Baker'],
    ['Bo', 'Berg'],
    ['Ann', 'Smith'],
  ] as const) {
    const created = await api.send<{ _id: string }>('POST', 'accounts', {
      email: `${first.toLowerCase()}.${last.toLowerCase()}@demo.test`,
      password: 'staple horse 42',
      name: { first, last },
    });
    expect(created.status).toBe(200);
    ids[first] = created.body._id;
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const lab = new TokensPage(page);
  await lab.open();

  // The scope starts empty: a token gets full access only when someone types `*`.
  await expect(page.getByTestId('mint-scope')).toHaveValue('');
  await expect(page.getByTestId('mint-chains')).toContainText('No chains');

  // The ARIA combobox: typing opens the list, arrows move the active option, Enter picks it.
  const box = page.getByTestId('lab-account');
  await expect(box).toHaveAttribute('role', 'combobox');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.fill('bo');
  const options = page.getByTestId('lab-account-option');
  await expect(options).toHaveCount(2);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('listbox', { name: 'Matching accounts' })).toBeVisible();
  await box.press('ArrowDown');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id')) ?? '');
  await box.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
  await box.press('ArrowDown');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await console_.screenshots('tokens-lab-combobox');
  const second = (await options.nth(1).getAttribute('data-id')) ?? '';
  await box.press('Enter');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  expect(page.url()).toContain(`account=${second}`);
  await expect(page.getByTestId('lab-account-id')).toHaveText(second);
  await expect(box).toHaveValue(/@demo\.test>$/);
  const picked = await box.inputValue();
  // Escape closes an open list and keeps the text; a second Escape restores the picked account.
  await box.fill('ann');
  await expect(options).toHaveCount(1);
  await box.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toHaveValue('ann');
  await box.press('Escape');
  await expect(box).toHaveValue(picked);
  expect(page.url()).toContain(`account=${second}`);
  await lab.pickAccount('ann');
  await expect(box).toHaveValue('Ann Smith <ann.smith@demo.test>');
  await lab.pickApp('Partner API');

  // A token with a scope, a use limit and a two-hour life.
  await lab.setScope('object.read.account.*.name\nview.execute.reports');
  await page.getByTestId('mint-maxUses').fill('2');
  await page.getByTestId('mint-expiry-expiresIn').check();
  await page.getByTestId('mint-expiresIn').fill('2');
  await page.getByTestId('mint-expiresIn-unit').selectOption('h');
  const token = await lab.mintShown();
  expect(jwtPayload(token)).toMatchObject({ sub: ids.Ann, 'service/cnt': 2 });
  await page.getByTestId('minted-decode').click();

  // The encoded token in jwt.io's three colours, each readable on its background in both themes.
  const parts = page.getByTestId('decode-parts');
  await expect(parts.locator('[data-part]')).toHaveCount(3);
  await expect(parts).toHaveText(token);
  const [header, payload, signature] = ['header', 'payload', 'signature'].map((p) =>
    parts.locator(`[data-part="${p}"]`),
  ) as [Locator, Locator, Locator];
  for (const theme of ['light', 'dark'] as const) {
    await console_.theme(theme);
    const colours = await Promise.all(
      [header, payload, signature].map((p) => p.evaluate((el) => getComputedStyle(el).color)),
    );
    expect(new Set(colours).size).toBe(3);
    for (const part of [header, payload, signature]) expect(await contrastOf(part)).toBeGreaterThanOrEqual(4.5);
    // The decoded header and payload carry their part's colour.
    const title = page.locator('.decode-json__part--payload > .pane-title');
    expect(await title.evaluate((el) => getComputedStyle(el).color)).toBe(colours[1]);
  }
  await console_.theme('light');
  await console_.screenshots('tokens-lab-decode-parts');

  // Edit and re-mint: another account and app chosen meanwhile; the token's own come back.
  await page.evaluate((hash) => (window.location.hash = hash), `#/tokens?pane=decode&account=${ids.Bob}`);
  await expect(page.getByTestId('decode-remint')).toBeVisible();
  await page.getByTestId('decode-remint').click();
  await expect(page.getByTestId('mint-form')).toBeVisible();
  expect(page.url()).toContain(`account=${ids.Ann}`);
  expect(page.url()).toContain(`app=${app.body.key}`);
  await expect(page.getByTestId('mint-scope')).toHaveValue('object.read.account.*.name\nview.execute.reports');
  await expect(page.getByTestId('mint-maxUses')).toHaveValue('2');
  await expect(page.getByTestId('mint-expiry-expiresIn')).toBeChecked();
  await expect(page.getByTestId('mint-expiresIn')).toHaveValue('2');
  await expect(page.getByTestId('mint-expiresIn-unit')).toHaveValue('h');
  await console_.screenshots('tokens-lab-remint');
  // One change, and the re-minted token says so.
  await page.getByTestId('mint-maxUses').fill('5');
  const again = await lab.mint();
  expect(jwtPayload(again)).toMatchObject({
    sub: ids.Ann,
    'service/cnt': 5,
    'service/scp': ['object.read.account.*.name', 'view.execute.reports'],
  });
  const claims = jwtPayload(again) as { iat: number; exp: number };
  expect(claims.exp - claims.iat).toBe(7200);
});
