/**
 * Issue 38's fairness proof for imports, over real HTTP against a listening service with two
 * orgs: while one org's administrator posts an import of bad lines (a small gzip body that reads
 * as ~100,000 lines), the other org's requests and scripts are answered, one after another, before
 * that import is; and the import is answered with a small fault in the spec's shape. Judged by the
 * order of the answers, not by a clock (medium 3).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, ADMIN_EMAIL, ADMIN_PASSWORD, type Harness } from '../testing/harness.js';
import { bootstrapOrg } from '../bootstrap.js';
import { listen } from '../server.js';
import { MAX_IMPORT_LINES, MAX_LISTED_FAULTS } from '../environment/ndjson-input.js';

interface Client {
  request(method: string, path: string, body?: string | Buffer, type?: string): Promise<Response>;
}

let h: Harness;
let base: string;
let demo: Client;
let other: Client;

/** An org administrator's session over HTTP (cookie and CSRF token). */
async function login(org: string, appKey: string, email: string): Promise<Client> {
  const res = await fetch(`${base}/${org}/v2/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': appKey },
    body: JSON.stringify({ email, password: ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login to ${org} failed: ${res.status} ${await res.text()}`);
  const headers = {
    'service-client-key': appKey,
    'service-csrf-token': res.headers.get('service-csrf-token') ?? '',
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
  return {
    request: (method, path, body, type = 'application/json') =>
      fetch(`${base}/${org}/v2${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': type }) },
        ...(body === undefined ? {} : { body }),
      }),
  };
}

beforeAll(async () => {
  h = await createHarness();
  base = `http://127.0.0.1:${await listen(h.server, 0)}`;
  const second = await bootstrapOrg(h.svc, {
    code: 'other',
    adminEmail: 'admin@other.test',
    adminPassword: ADMIN_PASSWORD,
  });
  demo = await login('demo', h.consoleAppKey, ADMIN_EMAIL);
  other = await login('other', second.consoleAppKey, 'admin@other.test');
  await h.svc.scripts.run({ source: 'return 1' }); // the pool's workers are loaded before the race
}, 60_000);
afterAll(async () => h.close());

describe("one org's import of bad lines does not hold up another org", () => {
  it("answers another org's requests and scripts while it reads the lines, then refuses it with a small fault", async () => {
    const lines = MAX_IMPORT_LINES - 1;
    const body = gzipSync(Buffer.from('x\n'.repeat(lines)), { level: 9 });
    expect(body.length).toBeLessThan(4096);
    const order: string[] = [];
    const importing = demo
      .request('POST', '/developer/environment/import', body, 'application/x-ndjson')
      .then(async (res) => {
        order.push('import');
        return { status: res.status, text: await res.text() };
      });
    // One after another: each is sent only once the one before was answered.
    for (let i = 0; i < 5; i++) {
      const me = await other.request('GET', '/accounts/me');
      expect(me.status).toBe(200);
      order.push('request');
    }
    const run = await other.request('POST', '/sys/script_runner', JSON.stringify({ script: 'return 1' }));
    expect(await run.json()).toMatchObject({ object: 'result', data: 1 });
    order.push('script');
    const imported = await importing;
    expect(order).toEqual(['request', 'request', 'request', 'request', 'request', 'script', 'import']);
    expect(imported.status).toBe(400);
    const fault = JSON.parse(imported.text) as { errCode: string; faults: unknown[]; reason: string };
    expect(fault).toMatchObject({ errCode: 'service.invalidArgument.import' });
    expect(fault.faults).toHaveLength(MAX_LISTED_FAULTS);
    expect(fault.reason).toContain(`${lines + 1} problems`);
    expect(imported.text.length).toBeLessThan(40_000);
  }, 60_000);
});
