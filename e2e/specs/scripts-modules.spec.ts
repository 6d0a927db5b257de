import { expect, test } from '@playwright/test';
import { startHeadlessService, type HeadlessService } from '../fixtures/headless-service';
import { ConsolePage } from '../pages/console-page';
import { ScriptsPage } from '../pages/scripts-page';

const EMAIL = 'admin@demo.test';
const PASSWORD = 'a strong password';

let service: HeadlessService;
test.afterEach(async () => service?.stop());

const LIBRARY = `import { route } from 'decorators'

export function greet(name) {
  return 'hi ' + name
}

export class Api {
  @route('GET hello-lib/:name', { acl: 'account.public' })
  static hello({ req }) {
    return greet(req.params.name)
  }
}
`;

test('a library saved with @route: its export and route listed, require completed, import run', async ({ page }) => {
  test.setTimeout(180_000);
  service = await startHeadlessService(['--admin-email', EMAIL, '--admin-password', PASSWORD]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const console_ = new ConsolePage(page);
  await console_.open(service.consoleUrl);
  await console_.login(EMAIL, PASSWORD);
  const scripts = new ScriptsPage(page);
  await scripts.open();
  await expect(page.getByTestId('builtin-modules')).toBeAttached();

  // Save a decorated library: it is exported under its name and its route is listed with its URL.
  await scripts.write(LIBRARY);
  await page.getByTestId('save-name').fill('c_hello_lib');
  await page.getByTestId('save-submit').click();
  await expect(page.getByTestId('save-done')).toBeVisible();
  await page.reload();
  await scripts.open();
  await expect(page.getByTestId('library-exports')).toContainText('c_hello_lib');
  await expect(page.getByTestId('decorated-routes')).toContainText('/demo/v2/routes/hello-lib/:name');
  await expect(page.getByTestId('decorated-routes')).toContainText('Api.hello');

  // require(' offers the library export and the built-in modules.
  await page.getByTestId('script-new').click();
  await scripts.write("const lib = require('c_h");
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('c_hello_lib');
  await scripts.screenshot('scripts-modules-1440-light');
  await page.keyboard.press('Escape');

  // Lint while typing: a name that is neither declared nor a global of scripts is marked.
  await scripts.write('return db.things.find()');
  await expect(page.locator('.cm-lintRange-warning')).toHaveCount(1);

  // Hovering a module name says what it is here (a refused one, why).
  await scripts.write("const w = require('db')");
  await page.locator('.cm-line span', { hasText: "'db'" }).hover();
  await expect(page.locator('.cm-script-hover')).toContainText('refused here');

  // An import of the library runs.
  // (moment proves the built worker finds the bundled libraries.)
  await scripts.write(
    "import { greet } from 'c_hello_lib'\nimport moment from 'moment'\nreturn greet('console') + moment.utc(0).format('YYYY')",
  );
  await scripts.run();
  await expect(page.getByTestId('run-state')).toHaveText('Succeeded');
  await expect(scripts.result()).toContainText('hi console1970');

  await page.getByTestId('theme-toggle').click();
  await scripts.screenshot('scripts-modules-1440-dark');
  await page.setViewportSize({ width: 1024, height: 700 });
  await scripts.screenshot('scripts-modules-1024-dark');
  await page.getByTestId('theme-toggle').click();
  await scripts.screenshot('scripts-modules-1024-light');
});
