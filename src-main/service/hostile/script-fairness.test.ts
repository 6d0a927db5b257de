/**
 * Issue 38's proof for scripts, over real HTTP against a listening service with two orgs: while
 * one org runs runaway scripts (or anonymous callers flood its route), another org's requests and
 * scripts answer — before any runaway ends, and within the issue's 2 s — and the flood is answered
 * `service.throttled.script` (429) past its queue instead of waiting without end.
 * The issue's proof also runs a bad-lines import at the same time; that fix (import parsing off the
 * event loop) is another change's, so only the scripts are exercised here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, ADMIN_EMAIL, ADMIN_PASSWORD, type Harness } from '../testing/harness.js';
import { bootstrapOrg } from '../bootstrap.js';
import { listen } from '../server.js';

interface Client {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
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
    get: (path) => fetch(`${base}/${org}/v2${path}`, { headers }),
    post: (path, body) =>
      fetch(`${base}/${org}/v2${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

/** Waits (at most 500 turns of 10 ms) until `ready()` holds. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ready()).toBe(true);
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
  // demo's runaway scripts run 2.5 s each; the pool's workers are loaded before the clock matters.
  h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { scriptLimits: { timeoutMs: 2500 } });
  await h.svc.scripts.ready();
  const spin = await demo.post('/scripts', {
    label: 'spin',
    type: 'route',
    active: true,
    script: 'const until = Date.now() + 200; while (Date.now() < until) {} return 1',
    configuration: { method: 'get', path: '/spin', acl: ['anonymous'] },
  });
  expect(spin.status, await spin.text()).toBe(200);
}, 60_000);
afterAll(async () => h.close());

describe("one org cannot starve another org's scripts", () => {
  it("another org's request and script answer while one org's runaway scripts run", async () => {
    let runawayDone = 0;
    const runaway = Array.from({ length: 4 }, () =>
      demo.post('/sys/script_runner', { script: 'while (true) {}' }).then(async (res) => {
        runawayDone += 1;
        return { status: res.status, body: (await res.json()) as { errCode?: string } };
      }),
    );
    // Two run (demo's share of the three workers), two wait.
    await until(() => h.svc.scripts.waiting === 2);
    const me = await other.get('/accounts/me');
    const run = await other.post('/sys/script_runner', { script: 'return 1' });
    expect(me.status).toBe(200);
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ object: 'result', data: 1 });
    // Answered before any runaway ended (their 2.5 s budget): counted, not timed.
    expect(runawayDone).toBe(0);
    for (const r of await Promise.all(runaway)) {
      expect(r).toMatchObject({ status: 504, body: { errCode: 'service.timeout.script' } });
    }
  }, 30_000);

  it("anonymous callers flooding one org's route are throttled, and another org's script still answers", async () => {
    let anonymousDone = 0;
    const flood = Array.from({ length: 40 }, () =>
      fetch(`${base}/demo/v2/routes/spin`, { headers: { 'service-client-key': h.consoleAppKey } }).then(async (res) => {
        anonymousDone += 1;
        return { status: res.status, body: (await res.json()) as { errCode?: string } };
      }),
    );
    await until(() => h.svc.scripts.waiting > 0);
    const run = await other.post('/sys/script_runner', { script: 'return 1' });
    expect(run.status).toBe(200);
    // The other org's run did not wait for the flood's backlog (ten runs of 200 ms on two workers):
    // it was answered while part of the flood was still unanswered.
    expect(anonymousDone).toBeLessThan(40);
    const answers = await Promise.all(flood);
    const throttled = answers.filter((a) => a.status === 429);
    for (const a of throttled) expect(a.body.errCode).toBe('service.throttled.script');
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);
    // One address queues at most 8 runs beside the 2 running: most of the 40 were refused at once.
    expect(throttled.length).toBeGreaterThanOrEqual(20);
  }, 30_000);
});
