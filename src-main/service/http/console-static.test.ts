/** Issue #13, item 17: the service never serves a source map from the console folder. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHarness, type Harness } from '../testing/harness.js';
import { buildServer } from '../server.js';

let h: Harness;
let dir: string;
let app: FastifyInstance;
beforeEach(async () => {
  h = await createHarness({ bootstrap: false });
  dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1);\n//# sourceMappingURL=index-abc.js.map');
  writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["secret.tsx"]}');
  app = await buildServer(h.svc, { consoleDir: dir });
});
afterEach(async () => {
  await app.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: '127.0.0.1' } });

describe('console static files', () => {
  it('answers 404 for /console/assets/*.map even when the file exists, and serves the script', async () => {
    expect((await get('/console/assets/index-abc.js')).statusCode).toBe(200);
    for (const url of [
      '/console/assets/index-abc.js.map',
      '/console/assets/INDEX-abc.js.map',
      '/console/assets/index-abc.js.map?x=1',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret.tsx');
    }
  });
});
