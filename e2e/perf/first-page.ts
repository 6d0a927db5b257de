/**
 * `npm run bench:console -- --data-dir DIR --password P [--email E]`: how long the console takes
 * from pressing Run to showing the first row of a query, on an already seeded data dir (e.g.
 * `npm run seed -- --accounts 1000000`). A measurement, not a test: it prints medians.
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    email: { type: 'string', default: 'admin@demo.example' },
    password: { type: 'string' },
    runs: { type: 'string', default: '7' },
  },
});
if (!values['data-dir'] || !values.password) throw new Error('usage: --data-dir DIR --password P [--email E]');

const QUERIES = {
  'newest first (default order)': {},
  'regex prefix /^s/i, sort name.last, name.first': {
    where: { 'name.last': { $regex: '/^s/i' } },
    sort: { 'name.last': 1, 'name.first': 1 },
  },
  'created range, sort created desc': {
    where: {
      $and: [{ created: { $gt: '2023-01-01T00:00:00.000Z' } }, { created: { $lt: '2023-07-01T00:00:00.000Z' } }],
    },
    sort: { created: -1 },
  },
} as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

async function main() {
  const child = spawn(
    process.execPath,
    ['dist/main/cli.js', 'serve', '--data-dir', values['data-dir']!, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Console:\s+(\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
  });
  const browser = await chromium.launch(
    existsSync('/usr/bin/chromium') && !existsSync(chromium.executablePath())
      ? { executablePath: '/usr/bin/chromium' }
      : {},
  );
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByTestId('login-email').fill(values.email!);
    await page.getByTestId('login-password').fill(values.password!);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('current-user').waitFor();
    for (const [label, q] of Object.entries(QUERIES)) {
      const times: number[] = [];
      for (let i = 0; i < Number(values.runs); i++) {
        // The URL drives the query; a different limit each run makes it a fresh request, not a cache hit.
        const limit = 100 - i;
        const params = new URLSearchParams({ c: 'accounts', limit: String(limit) });
        if ('where' in q) params.set('where', JSON.stringify(q.where));
        if ('sort' in q) params.set('sort', JSON.stringify(q.sort));
        const t0 = Date.now();
        await page.evaluate((hash) => (location.hash = hash), `#/browse?${params}`);
        // Settled on this query: "1–L of …" (the range; the total is counted after the rows show,
        // so it is not waited for) or "L rows of …" where the position is unknown.
        await page.waitForFunction(
          (n) => {
            const text = document.querySelector('[data-testid="result-range"]')?.textContent ?? '';
            return new RegExp(`^(1–${n}|${n} rows)( |$)`).test(text);
          },
          limit,
          { polling: 'raf' },
        );
        await page.getByTestId('result-row').first().waitFor();
        if (i > 0) times.push(Date.now() - t0); // the first run also loads the schemas
      }
      console.log(
        `${label}: first page visible ${median(times)} ms after the query changes (median of ${times.length})`,
      );
    }
  } finally {
    await browser.close();
    child.kill();
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
