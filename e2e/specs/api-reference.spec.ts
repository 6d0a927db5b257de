/**
 * The API reference: the console's screen frames /_service/docs, which renders
 * /_service/openapi.json offline (Scalar) and whose "try it" calls the service in the console's
 * session. Nothing is fetched from anywhere but the service. Screenshots at 1440×900 and
 * 1024×700 in both themes: e2e/artifacts/api-reference-*.png.
 */
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async ({ page }) => {
  await page.close();
  await service?.stop();
});
test.setTimeout(180_000);

/** Refuses, and records, every request that is not to the service. */
async function serviceOnly(page: Page, origin: string): Promise<string[]> {
  const outside: string[] = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return outside;
}

/** The reference has rendered: its title, and the loading line gone. */
async function rendered(frame: FrameLocator | Page): Promise<void> {
  await expect(frame.getByRole('heading', { name: 'Typed-object service' })).toBeVisible({ timeout: 60_000 });
  await expect(frame.locator('#reference-status')).toHaveCount(0);
}

test('the API reference screen renders the description offline and "try it" runs in the session', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const outside = await serviceOnly(page, service.url);
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  await expect(console_.rows().first()).toBeVisible();
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page.locator('h1.screen__title')).toHaveText('API reference');
  const frame = page.frameLocator('[data-testid=api-reference-frame]');
  await rendered(frame);

  // The framed page follows the console's theme, in both sizes.
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ['light', 'dark'] as const) {
      await console_.theme(theme);
      await expect(frame.locator('body')).toHaveClass(new RegExp(`\\b${theme}-mode\\b`));
      await expect(frame.locator('html')).toHaveAttribute('data-theme', theme);
      await console_.screenshot(`api-reference-${width}-${theme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await console_.theme('light');

  // "Try it": the documented example of the script runner, sent from the renderer's client. An
  // administrator's write: the session cookie, the app key and the CSRF token all went with it.
  await frame.getByText('Scripts', { exact: true }).first().click();
  await frame.getByText('Run a script', { exact: true }).first().click();
  await frame
    .getByRole('button', { name: /Test Request/ })
    .first()
    .click();
  const answered = page.waitForResponse((r) => r.url().endsWith('/demo/v2/sys/script_runner'));
  await frame.getByRole('button', { name: /^Send/ }).first().click();
  const answer = await answered;
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ object: 'result', data: 42 });
  const sent = await answer.request().allHeaders();
  expect(sent['service-csrf-token']).toBeTruthy();
  expect(sent.cookie).toContain('service.sid=');
  await console_.screenshot('api-reference-try-it');

  expect(outside).toEqual([]);
});

test('headless mode serves the reference at /_service/docs, under its content policy', async ({ page }) => {
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  const outside = await serviceOnly(page, service.url);
  const response = await page.goto(`${service.url}/_service/docs`);
  expect(response?.status()).toBe(200);
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("connect-src 'self'");
  expect(policy).toContain("frame-ancestors 'self'");
  await rendered(page);
  await page.screenshot({ path: 'e2e/artifacts/api-reference-headless.png' });
  expect(outside).toEqual([]);
});
