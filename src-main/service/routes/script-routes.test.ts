/** The script library (/scripts) and script routes ALL /routes/<path> (docs/scripting.md#script-routes). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

let h: Harness;
let admin: TestClient;
let alice: TestClient;
let aliceId: string;
let bobId: string;
let adminId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  aliceId = await createUser(admin, 'alice@example.test');
  bobId = await createUser(admin, 'bob@example.test');
  alice = new TestClient(h);
  await alice.login('alice@example.test', USER_PASSWORD);
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

let n = 0;
async function route(config: Record<string, unknown>, script: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/scripts', {
    label: `r${++n}`,
    type: 'route',
    active: true,
    script,
    configuration: { method: 'get', priority: 0, acl: ['account.public'], ...config },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

describe('script library', () => {
  it('refuses a script that does not compile, naming line and column', async () => {
    const res = await admin.post('/scripts', { label: 'bad', type: 'library', script: 'var a = 1;\nvar = ;' });
    expect(res.statusCode).toBe(400);
    expect(res.json().path).toBe('script');
    expect(res.json().reason).toMatch(/^Line 2, column \d+:/);
  });

  it('refuses a second route with the same method and path, and a route without a path', async () => {
    await route({ method: 'post', path: '/dup' }, 'return 1');
    const again = await admin.post('/scripts', {
      label: 'again',
      type: 'route',
      script: 'return 2',
      configuration: { method: 'post', path: 'dup' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().path).toBe('configuration.path');
    const noPath = await admin.post('/scripts', { label: 'np', type: 'route', script: 'return 2', configuration: {} });
    expect(noPath.statusCode).toBe(400);
  });

  it('only administrators create scripts', async () => {
    const res = await alice.post('/scripts', { label: 'x', type: 'library', script: 'return 1' });
    expect(res.statusCode).toBe(403);
  });

  it('validates edits too', async () => {
    const id = await route({ path: '/edit-me' }, 'return 1');
    const bad = await admin.patch(`/scripts/${id}`, { script: 'return (' });
    expect(bad.statusCode).toBe(400);
    const good = await admin.patch(`/scripts/${id}`, { script: 'return 2' });
    expect(good.statusCode, good.body).toBe(200);
    expect((await alice.get('/routes/edit-me')).json()).toEqual({ object: 'result', data: 2 });
  });
});

describe('ALL /routes/<path>', () => {
  it('matches method and path with params, and passes request data', async () => {
    await route(
      { method: 'get', path: '/things/:id/parts/:part' },
      `var r = require('request'); return { params: r.params, q: r.query, me: script.principal.email }`,
    );
    const res = await alice.get('/routes/things/abc/parts/7?x=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ params: { id: 'abc', part: '7' }, q: { x: '1' }, me: 'alice@example.test' });
    expect(res.headers['service-sandbox-stats']).toBeDefined();
    expect((await alice.post('/routes/things/abc/parts/7', {})).json().errCode).toBe('service.notFound.route');
  });

  it('decodes each path segment once: %2F stays inside its parameter, %25 is a percent sign', async () => {
    await route({ method: 'get', path: '/enc/p/:id' }, `return require('request').params.id`);
    const id = async (raw: string) => (await alice.get(`/routes/enc/p/${raw}`)).json();
    expect(await id('100%25')).toMatchObject({ data: '100%' });
    expect(await id('a%2Fb')).toMatchObject({ data: 'a/b' });
    expect(await id('a%252Fb')).toMatchObject({ data: 'a%2Fb' });
    expect((await id('%E0%A4%A')).errCode).toMatch(/^service\.(invalidArgument|notFound)\./);
  });

  it('refuses a second route whose path differs only in a parameter name', async () => {
    await route({ method: 'get', path: '/shape/:id' }, 'return 1');
    const res = await admin.post('/scripts', {
      label: 'same shape',
      type: 'route',
      active: true,
      script: 'return 2',
      configuration: { method: 'get', path: '/shape/:other', acl: ['account.public'] },
    });
    expect(res.json()).toMatchObject({ errCode: 'service.validation.conflict', path: 'configuration.path' });
  });

  it('answers notFound.route when nothing matches; inactive routes do not match', async () => {
    await route({ path: '/sleeping' }, 'return 1', { active: false });
    for (const path of ['/routes/nothing-here', '/routes/sleeping']) {
      const res = await alice.get(path);
      expect(res.statusCode).toBe(404);
      expect(res.json().errCode).toBe('service.notFound.route');
    }
  });

  it('tries by priority, then weight, and next() falls through', async () => {
    await route({ method: '*', path: '/order', priority: 1 }, 'return "low"');
    await route({ method: 'get', path: '/order', priority: 5 }, `require('response').next()`, { weight: 1 });
    const res = await alice.get('/routes/order');
    expect(res.json()).toEqual({ object: 'result', data: 'low' });
  });

  it('orders equal priorities by weight', async () => {
    await route({ method: '*', path: '/weighted', priority: 2 }, 'return "light"', { weight: 1 });
    await route({ method: 'get', path: '/weighted', priority: 2 }, 'return "heavy"', { weight: 5 });
    expect((await alice.get('/routes/weighted')).json()).toEqual({ object: 'result', data: 'heavy' });
  });

  it('lets a handler set status, headers and body', async () => {
    await route(
      { method: 'post', path: '/made' },
      `require('response').setStatusCode(201).setHeader('X-Made', 'yes').write({ made: require('request').body.n })`,
    );
    const res = await alice.post('/routes/made', { n: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-made']).toBe('yes');
    expect(res.json()).toEqual({ made: 3 });
  });

  it('sends what write() gives as JSON, a string too, and never lets a script set the content type', async () => {
    await route({ path: '/html' }, `require('response').write('<script>alert(1)</script>')`);
    const plain = await alice.get('/routes/html');
    expect(plain.headers['content-type']).toContain('application/json');
    expect(plain.json()).toBe('<script>alert(1)</script>');
    await route({ path: '/html2' }, `require('response').setHeader('Content-Type', 'text/html').write('<b>x</b>')`);
    const refused = await alice.get('/routes/html2');
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.json()).toMatchObject({ object: 'fault', path: 'header' });
  });

  it('applies the acl: account.public needs a login, anonymous admits anyone, role.<id> needs the role', async () => {
    await route({ path: '/members' }, 'return "hi"');
    await route({ path: '/open', acl: ['anonymous'] }, 'return script.principal');
    await route({ path: '/support', acl: [`role.${BUILTIN_ROLES.support}`] }, 'return "s"');
    const anon = new TestClient(h);
    const denied = await anon.get('/routes/members');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errCode).toBe('service.accessDenied.route');
    expect((await anon.get('/routes/open')).json()).toEqual({ object: 'result', data: null });
    expect((await alice.get('/routes/support')).json().errCode).toBe('service.accessDenied.route');
  });

  it('needs script.execute.route.<id> (or a covering chain) from a scope-limited caller', async () => {
    const id = await route({ path: '/scoped' }, 'return 1');
    const other = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['script.execute.runner'] });
    const denied = await new BearerClient(h, other).get('/routes/scoped');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errCode).toBe('service.accessDenied.scope');
    for (const scope of [
      `script.execute.route.${id}`,
      'script.execute.route',
      'script.execute.*',
      'script.*',
      'script',
      '*',
    ]) {
      const jwt = await mint(admin, aliceId, { app: h.consoleAppKey, scope: [scope] });
      expect((await new BearerClient(h, jwt).get('/routes/scoped')).statusCode, scope).toBe(200);
    }
  });

  it('script chains are accepted on roles as on tokens', async () => {
    const id = await route({ path: '/role-scoped' }, 'return 1');
    const chains = ['script', 'script.*', 'script.execute', `script.execute.route.${id}`, 'script.execute.runner'];
    const res = await admin.post('/roles', { name: 'Script runner', code: 'c_script_runner', scopes: chains });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scopes).toEqual(chains);
    const bad = await admin.post('/roles', { name: 'Bad', code: 'c_bad_script', scopes: ['script.*.route'] });
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope' });
  });

  it('runs as the route principal when set, else as the caller', async () => {
    await route({ path: '/as-bob', principal: 'bob@example.test' }, 'return script.principal._id');
    expect((await alice.get('/routes/as-bob')).json()).toEqual({ object: 'result', data: bobId });
  });

  it('a route whose principal was locked or deleted after the save is refused with a 403 naming why, not a 500', async () => {
    const carolId = await createUser(admin, 'carol@example.test');
    await route({ path: '/as-carol', principal: 'carol@example.test' }, 'return script.principal._id');
    expect((await alice.get('/routes/as-carol')).json()).toEqual({ object: 'result', data: carolId });
    expect((await admin.patch(`/accounts/${carolId}`, { locked: true })).statusCode).toBe(200);
    const locked = await alice.get('/routes/as-carol');
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ errCode: 'service.accessDenied.route.principal' });
    expect(locked.json().reason).toMatch(/locked/);
    expect((await admin.delete(`/accounts/${carolId}`)).statusCode).toBe(200);
    const gone = await alice.get('/routes/as-carol');
    expect(gone.statusCode).toBe(403);
    expect(gone.json().reason).toMatch(/account of this org/);
  });
});

describe('access from scripts', () => {
  it('a script run by a plain account reads only what that account can', async () => {
    await route(
      { path: '/accounts-seen' },
      'return org.objects.accounts.find().paths("email").toArray().map(function (a) { return a.email })',
    );
    const asAlice = await alice.get('/routes/accounts-seen');
    expect(asAlice.statusCode, asAlice.body).toBe(200);
    expect(asAlice.json().data).toEqual(['alice@example.test']);
    const asAdmin = await admin.get('/routes/accounts-seen');
    expect(asAdmin.json().data.length).toBeGreaterThanOrEqual(3);
  });

  it('a returned cursor is answered like cursor, as the route principal, streamed with NDJSON', async () => {
    await route({ path: '/cursor' }, 'return org.objects.accounts.find().paths("email")');
    const listed = await alice.get('/routes/cursor');
    expect(listed.json()).toMatchObject({ object: 'list', hasMore: false });
    expect(listed.json().data.map((a: { email: string }) => a.email)).toEqual(['alice@example.test']);
    const streamed = await alice.get('/routes/cursor', { accept: 'application/x-ndjson' });
    expect(streamed.headers['content-type']).toContain('application/x-ndjson');
    expect(JSON.parse(streamed.body.trim())).toMatchObject({ object: 'account', email: 'alice@example.test' });
  });

  it('skipAcl works only for principals allowed to skip', async () => {
    await route({ path: '/skip' }, 'return org.objects.accounts.find().skipAcl(true).toArray().length');
    const plain = await alice.get('/routes/skip');
    expect(plain.json()).toEqual({ object: 'result', data: 1 });
    const skipper = await mint(admin, aliceId, {
      app: h.consoleAppKey,
      scope: ['*'],
      skipAcl: true,
    });
    const allowed = await new BearerClient(h, skipper).get('/routes/skip');
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().data).toBeGreaterThanOrEqual(3);
    expect(adminId).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('route settings: apiKey and authValidation (§C)', () => {
  it('apiKey: only requests through that app reach the route', async () => {
    const made = await admin.post('/apps', { label: 'Webhook app', kind: 'session' });
    expect(made.statusCode, made.body).toBe(200);
    const key = made.json().key as string;
    await route({ path: '/app-only', acl: ['anonymous'], apiKey: key }, 'return "through the app"');
    const viaApp = await new TestClient(h, key).get('/routes/app-only');
    expect(viaApp.statusCode, viaApp.body).toBe(200);
    expect(viaApp.json()).toEqual({ object: 'result', data: 'through the app' });
    const viaConsole = await alice.get('/routes/app-only');
    expect(viaConsole.statusCode).toBe(403);
    expect(viaConsole.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.route' });
    const noKey = await new TestClient(h, '').get('/routes/app-only');
    expect(noKey.json()).toMatchObject({ errCode: 'service.accessDenied.route', status: 403 });
  });

  it('refuses an unknown authValidation and an apiKey that is not an app of the org', async () => {
    const base = { label: 'cfg', type: 'route', script: 'return 1' };
    const mode = await admin.post('/scripts', {
      ...base,
      configuration: { method: 'get', path: '/cfg-a', authValidation: 'sometimes' },
    });
    // The schema's enum (legacy | all | none) refuses it before the route rules run.
    expect(mode.statusCode).toBe(400);
    expect(mode.json().faults[0]).toMatchObject({ path: 'configuration.authValidation' });
    const key = await admin.post('/scripts', {
      ...base,
      configuration: { method: 'get', path: '/cfg-b', apiKey: 'NoSuchAppKey0000000000' },
    });
    expect(key.json()).toMatchObject({ errCode: 'service.validation.invalidReference', path: 'configuration.apiKey' });
  });

  it('none: credentials are not used; the route runs as its principal or anonymous', async () => {
    await route({ path: '/hook', acl: ['anonymous'], authValidation: 'none' }, 'return script.principal');
    const asAlice = await alice.get('/routes/hook');
    expect(asAlice.statusCode, asAlice.body).toBe(200);
    expect(asAlice.json()).toEqual({ object: 'result', data: null });
    await route({ path: '/hook-members', authValidation: 'none' }, 'return 1');
    expect((await alice.get('/routes/hook-members')).json().errCode).toBe('service.accessDenied.route');
    // A scope-limited token does not matter either: the caller is not used.
    const narrow = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['object.read.account'] });
    expect((await new BearerClient(h, narrow).get('/routes/hook')).statusCode).toBe(200);
  });

  it('all: an app is required and an unusable session is its fault; legacy runs it as anonymous', async () => {
    await route(
      { path: '/strict', acl: ['anonymous'], authValidation: 'all' },
      'return script.principal ? script.principal.email : null',
    );
    await route({ path: '/lenient', acl: ['anonymous'] }, 'return script.principal ? script.principal.email : null');
    const bob = new TestClient(h);
    await bob.login('bob@example.test', USER_PASSWORD);
    expect((await bob.get('/routes/strict')).json()).toEqual({ object: 'result', data: 'bob@example.test' });
    const keyless = await new TestClient(h, '').get('/routes/strict');
    expect(keyless.json()).toMatchObject({ errCode: 'service.accessDenied.app', status: 403 });
    expect((await new TestClient(h, '').get('/routes/lenient')).json()).toEqual({ object: 'result', data: null });
    // Every session goes stale: the strict route says so, the lenient one runs anonymously.
    h.clock.advance(24 * 3600 * 1000);
    try {
      const strict = await bob.get('/routes/strict');
      expect(strict.statusCode).toBe(403);
      expect(strict.json()).toMatchObject({ errCode: 'service.accessDenied.sessionExpired', code: 'kSessionExpired' });
      expect((await bob.get('/routes/lenient')).json()).toEqual({ object: 'result', data: null });
    } finally {
      await admin.login();
      await alice.login('alice@example.test', USER_PASSWORD);
    }
  });
});

describe('urlEncoded (issue 40)', () => {
  it('a form posted to a route with urlEncoded is read as fields; without it, as its text', async () => {
    await route({ method: 'post', path: '/form-fields', urlEncoded: true }, "return require('request').body");
    await route({ method: 'post', path: '/form-text' }, "return require('request').body");
    const send = (path: string) =>
      admin.request('POST', path, 'a=1&b=two+words&a=3', { 'content-type': 'application/x-www-form-urlencoded' });
    expect((await send('/routes/form-fields')).json()).toEqual({ a: ['1', '3'], b: 'two words' });
    expect((await send('/routes/form-text')).json()).toEqual({ object: 'result', data: 'a=1&b=two+words&a=3' });
  });
});
