/**
 * Issue 40: `require('api')` as the original's tests use it ("Cluster - Activity":
 * `api.currentActivity()` answers requests, scripts and workers), from the runner and from a
 * route, with the access of an HTTP request by the same principal (host-api.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { createUser, USER_PASSWORD } from '../../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let user: TestClient;
let adminId: string;
let userId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  userId = await createUser(admin, 'plain@example.test');
  user = new TestClient(h);
  await user.login('plain@example.test', USER_PASSWORD);
  await h.svc.scripts.run({ source: 'return 1' });
  const route = await admin.post('/scripts', {
    label: 'activity route',
    type: 'route',
    active: true,
    script: "require('should')\nconst activity = require('api').currentActivity()\nreturn activity",
    configuration: { method: 'get', path: 'c_activity', priority: 0, acl: ['account.public'] },
  });
  expect(route.statusCode, route.body).toBe(200);
  // What any logged-in account may ask of the module: its principal, the logs it may read.
  const api = await admin.post('/scripts', {
    label: 'api route',
    type: 'route',
    active: true,
    script:
      "const api = require('api'), q = require('request').query\n" +
      'return q.subject ? api.principal.create(q.subject) : api.logs({ sort: { beg: -1 }, limit: 5 })',
    configuration: { method: 'get', path: 'c_api', priority: 0, acl: ['account.public'] },
  });
  expect(api.statusCode, api.body).toBe(200);
}, 60_000);
afterAll(async () => h.close());

const run = (client: TestClient, script: string, args: Record<string, unknown> = {}) =>
  client.post('/sys/script_runner', { script, language: 'javascript', arguments: args });

describe("require('api')", () => {
  it("currentActivity() answers the org's requests, scripts and workers (the original's test, from the runner)", async () => {
    const r = await run(
      admin,
      "require('should')\nconst api = require('api'), activity = api.currentActivity()\n" +
        'activity.requests.length.should.be.a.Number()\nactivity.scripts.length.should.be.a.Number()\n' +
        'activity.workers.length.should.be.a.Number()\nreturn activity',
    );
    expect(r.statusCode, r.body).toBe(200);
    const { requests, scripts, workers } = r.json();
    // The run asking is running: it is the org's script, serving the runner's request, on a busy worker.
    expect(scripts).toEqual([expect.objectContaining({ type: 'request', depth: 0 })]);
    expect(requests).toEqual([expect.objectContaining({ method: 'POST', script: scripts[0]._id })]);
    expect(requests[0].path).toMatch(/sys\/script_runner$/);
    expect(workers.filter((w: { busy: boolean }) => w.busy).length).toBeGreaterThanOrEqual(1);
  });

  it('answers a route script its own request, and refuses the activity to a caller who is not an administrator', async () => {
    const asAdmin = await admin.get('/routes/c_activity');
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(asAdmin.json().requests).toEqual([expect.objectContaining({ method: 'GET' })]);
    expect(asAdmin.json().requests[0].path).toMatch(/routes\/c_activity$/);
    const asUser = await user.get('/routes/c_activity');
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
  });

  it('describes only its own org: runs of several callers in parallel each see their org', async () => {
    const answers = await Promise.all(
      [0, 1, 2].map(() => run(admin, "return require('api').currentActivity().scripts.length")),
    );
    for (const a of answers) {
      expect(a.statusCode, a.body).toBe(200);
      expect(a.json().data).toBeGreaterThanOrEqual(1);
    }
    expect(h.svc.scripts.activity('another org').runs).toEqual([]);
  });

  it('principal.create: the caller itself for anyone, another account for administrators', async () => {
    const own = await user.get('/routes/c_api?subject=plain@example.test');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ _id: userId, email: 'plain@example.test' });
    const other = await user.get(`/routes/c_api?subject=${adminId}`);
    expect(other.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
    const byAdmin = await admin.get(`/routes/c_api?subject=${userId}`);
    expect(byAdmin.json()).toMatchObject({ _id: userId, roles: [] });
    const nobody = await admin.get('/routes/c_api?subject=nobody@example.test');
    expect(nobody.json()).toMatchObject({ errCode: 'service.notFound.account' });
  });

  it('logs() reads the run logs as GET /logs does for the same principal; stats and closeOutputStream are refused', async () => {
    for (const n of [1, 2]) expect((await run(admin, `return ${n}`)).statusCode).toBe(200);
    const logs = await run(
      admin,
      "return require('api').logs({ where: { stp: 'runner' }, sort: { beg: -1 }, limit: 2 })",
    );
    expect(logs.statusCode, logs.body).toBe(200);
    expect(logs.json()).toMatchObject({ object: 'list' });
    expect(logs.json().data).toHaveLength(2);
    expect(logs.json().data[0]).toMatchObject({ object: 'log', stp: 'runner' });
    const viaRoute = await user.get('/routes/c_api');
    const viaRest = await user.get('/logs?limit=5');
    expect(viaRoute.statusCode, viaRoute.body).toBe(viaRest.statusCode);
    expect(viaRoute.json().data.length).toBe(viaRest.json().data.length);
    const stats = await run(admin, "return require('api').stats()");
    expect(stats.json()).toMatchObject({ errCode: 'service.notImplemented.api', path: 'api.stats' });
    const close = await run(admin, "return require('api').closeOutputStream('x')");
    expect(close.json()).toMatchObject({ errCode: 'service.notImplemented.api', path: 'api.closeOutputStream' });
  });
});
