/**
 * Request policies end to end (docs/scripting.md#policies): a library's @policy declarations
 * applied to its org's requests through the HTTP server, before the routes run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, ADMIN_PASSWORD, type Harness } from '../testing/harness.js';
import { bootstrapOrg } from '../bootstrap.js';
import { orgPolicies } from './policy-table.js';

let h: Harness;
let admin: TestClient;
let other: TestClient;
let adminId: string;

const GUARD = `const { policy, route } = require('decorators')

// Declared out of order on purpose: priority decides which policy goes first.
class Guard {
  @route('GET c_open', { acl: ['anonymous'] }) static open() { return 'open' }
  @route('POST c_echo') static echo({ body }) { return body() }
  @route('GET c_secret') static secret() { return 'secret' }
  @route('GET c_halted') static halted() { return 'Hello!' }

  @policy
  static denySecret = { name: 'c_deny', methods: 'get', paths: '/routes/c_secret', action: 'Deny', faultReason: 'No secrets.' }

  @policy({ methods: ['post'], paths: '/routes/c_echo', action: 'Script', weight: 1 })
  static echoPolicy({ body }) {
    if (body('end')) return 'ended!'
    if (body('deny')) throw Fault.create('service.accessDenied.policy', { reason: 'Because!' })
    if (body('crash')) throw new Error('boom')
    if (body('spin')) { while (true) {} }
    body('param', 'from policy')
  }

  @policy({ methods: ['get'], paths: '/routes/c_halted' })
  static answerInstead() { const res = require('response'); res.setStatusCode(404); res.write({ never: true }) }

  @policy({ methods: ['get'], paths: '/routes/c_halted', priority: 1 })
  static haltFirst({ halt }) { return halt() }

  @policy
  static denyOpenAfter = { methods: 'get', paths: '/routes/c_open', action: 'Deny', priority: 4 }

  @policy
  static allowOpen = { methods: 'get', paths: '/routes/c_open', action: 'Allow', halt: true, priority: 5 }

  @policy
  static moved = { methods: 'get', paths: '/routes/c_old/:id', action: 'Redirect', redirectUrl: '/routes/c_open' }

  @policy
  static noDirectReads = { methods: 'get', paths: '/c_gadgets/:id', action: 'Deny', faultStatusCode: 404, faultCode: 'service.notFound.gadget' }

  @policy({ methods: ['post'], paths: '/c_gadgets' })
  static rewriteRest({ body }) { body('c_name', 'sneaked past the schema') }

  @policy
  static limited = { methods: 'get', paths: '/routes/c_limited', action: 'Allow', rateLimit: true, rateLimitCount: 2, rateLimitWindow: 60 }
}
module.exports = Guard`;

async function save(client: TestClient, name: string, script: string) {
  return client.post('/scripts', {
    label: name,
    name,
    type: 'library',
    active: true,
    script,
    configuration: { export: name },
  });
}

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  const second = await bootstrapOrg(h.svc, {
    code: 'other',
    adminEmail: 'admin@other.test',
    adminPassword: ADMIN_PASSWORD,
  });
  other = new TestClient({ ...h, org: 'other', consoleAppKey: second.consoleAppKey });
  await other.login('admin@other.test');
  await h.svc.scripts.run({ source: 'return 1' });
  // Before any policy: the org's table is the one shared empty list (nothing to evaluate).
  const demo = h.svc.orgs.byCode('demo')!;
  expect(orgPolicies(h.svc, demo)).toBe(orgPolicies(h.svc, h.svc.orgs.byCode('other')!));
  const res = await save(admin, 'c_guard', GUARD);
  expect(res.statusCode, res.body).toBe(200);
  // The other org has the same route, and no policy.
  const mirror = await save(other, 'c_mirror', "const { route } = require('decorators')\nclass M { @route('GET c_secret') static s() { return 'secret' } }\nmodule.exports = M"); // prettier-ignore
  expect(mirror.statusCode, mirror.body).toBe(200);
}, 60_000);
afterAll(async () => h.close());

describe('Deny', () => {
  it('refuses with the configured reason before the route runs', async () => {
    const res = await admin.get('/routes/c_secret');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      errCode: 'service.accessDenied.policy',
      code: 'kAccessDenied',
      reason: 'No secrets.',
    });
  });

  it('is not passed by spelling the path otherwise (percent-encoding, case, a trailing slash)', async () => {
    for (const path of ['/routes/c_%73ecret', '/routes/C_SECRET', '/routes/c_secret/']) {
      expect((await admin.get(path)).json(), path).toMatchObject({ errCode: 'service.accessDenied.policy' });
    }
  });

  it('applies to reads the service answers without Fastify (the direct instance read), with its own fault and status', async () => {
    const res = await admin.get(`/c_gadgets/${adminId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errCode: 'service.notFound.gadget', reason: 'Access denied by policy.' });
  });

  it("never applies to another org's requests", async () => {
    expect((await other.get('/routes/c_secret')).json()).toEqual({ object: 'result', data: 'secret' });
  });
});

describe('Script', () => {
  it('answers the request with what the method returns', async () => {
    expect((await admin.post('/routes/c_echo', { end: true })).json()).toEqual({ object: 'result', data: 'ended!' });
  });

  it('refuses with the fault the method throws', async () => {
    const res = await admin.post('/routes/c_echo', { deny: true });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'kAccessDenied',
      errCode: 'service.accessDenied.policy',
      reason: 'Because!',
    });
  });

  it('changes the body the route reads, then lets it run', async () => {
    expect((await admin.post('/routes/c_echo', { a: 1 })).json()).toEqual({ a: 1, param: 'from policy' });
  });

  it('a body change reaches script routes only: a service route, whose body was checked already, is refused', async () => {
    const res = await admin.post('/c_gadgets', { c_name: 'x' });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ errCode: 'service.notImplemented.policy' });
    expect(res.json().reason).toMatch(/only script routes/);
  });

  it('a method that fails (a plain error, a timeout) refuses the request: never a 500, never a hang', async () => {
    const crash = await admin.post('/routes/c_echo', { crash: true });
    expect(crash.statusCode).toBe(403);
    expect(crash.json()).toMatchObject({ errCode: 'service.accessDenied.policy' });
    expect(crash.json().reason).toMatch(/^The policy Guard\.echoPolicy failed, so the request is refused: .*boom/);
    h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { scriptLimits: { timeoutMs: 300 } });
    try {
      const spin = await admin.post('/routes/c_echo', { spin: true });
      expect(spin.statusCode).toBe(403);
      expect(spin.json().reason).toMatch(/Guard\.echoPolicy failed/);
    } finally {
      h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { scriptLimits: {} });
    }
  });

  it('halt() ends the evaluation: the policies after it do not run, the route does', async () => {
    const res = await admin.get('/routes/c_halted');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ object: 'result', data: 'Hello!' });
  });

  it('leaves a log entry like other runs', async () => {
    await admin.post('/routes/c_echo', { end: true });
    const logs = await admin.get(`/logs?${listQuery({ where: { stp: 'policy' } })}`);
    expect(logs.statusCode, logs.body).toBe(200);
    const entry = (logs.json().data as { dat?: { resource?: string; path?: string } }[])[0];
    expect(entry?.dat).toMatchObject({ resource: 'Guard.echoPolicy', path: 'post /routes/c_echo' });
  });

  it('parallel requests each get their own outcome', async () => {
    const bodies = [{ end: true }, { deny: true }, { b: 2 }, { end: true }, { deny: true }, { c: 3 }];
    const answers = await Promise.all(bodies.map((b) => admin.post('/routes/c_echo', b)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 403, 200, 200, 403, 200]);
    expect(answers[2]?.json()).toEqual({ b: 2, param: 'from policy' });
    expect(answers[5]?.json()).toEqual({ c: 3, param: 'from policy' });
  });
});

describe('Allow, Redirect, rate limits', () => {
  it('Allow with halt lets the request through past a lower-priority Deny', async () => {
    expect((await admin.get('/routes/c_open')).json()).toEqual({ object: 'result', data: 'open' });
  });

  it("Redirect answers the org's API path", async () => {
    const res = await admin.get('/routes/c_old/5');
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('/demo/v2/routes/c_open');
  });

  it('a rate limit refuses past its count with throttled.policy and Retry-After', async () => {
    const first = await admin.get('/routes/c_limited');
    expect(first.headers['x-rate-limit-remaining']).toBe('1');
    await admin.get('/routes/c_limited');
    const third = await admin.get('/routes/c_limited');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ errCode: 'service.throttled.policy', reason: 'Too many requests.' });
    expect(third.headers['retry-after']).toBe('60');
    h.clock.advance(61_000);
    expect((await admin.get('/routes/c_limited')).statusCode).not.toBe(429);
  });
});

describe('saving', () => {
  it('a policy library of another org is not applied here, and a deactivated library applies nothing', async () => {
    const id = (await admin.get(`/scripts?${listQuery({ where: { name: 'c_guard' } })}`)).json().data[0]._id as string;
    const off = await admin.patch(`/scripts/${id}`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    try {
      // The route is the library's too: with it off, the route is gone, not refused by the policy.
      expect((await admin.get('/routes/c_secret')).json()).toMatchObject({ errCode: 'service.notFound.route' });
    } finally {
      expect((await admin.patch(`/scripts/${id}`, { active: true })).statusCode).toBe(200);
    }
    expect((await admin.get('/routes/c_secret')).statusCode).toBe(403);
  });
});
