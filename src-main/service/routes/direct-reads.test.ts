/**
 * The direct reads (one record, a list page) answer exactly as Fastify's routes do. Every case is sent twice with
 * fresh credentials: once through `server.inject` (Fastify's handler only) and once through the
 * HTTP server's dispatch (direct reads first), and the two answers must agree in status, headers
 * and body. Each case also says whether the direct path takes it, so no case passes vacuously.
 */
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import inject from 'light-my-request';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createHarness, injectAsClient, TestClient, type Harness } from '../testing/harness.js';
import { createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { signRequest } from '../auth/signatures/signature.js';
import { listen } from '../server.js';
import { DirectReads } from './direct-reads.js';
import { MAX_URL_LENGTH } from '../http/faults-plugin.js';

let h: Harness;
let admin: TestClient;
let user: TestClient;
let adminId: string;
let userId: string;
let conversationId: string;
let fileId: string;
let signing: { key: string; secret: string };
const handle = vi.spyOn(DirectReads.prototype, 'handle');

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id;
  userId = await createUser(admin, 'direct.user@example.test');
  user = new TestClient(h);
  await user.login('direct.user@example.test', USER_PASSWORD);
  conversationId = (await admin.post('/c_conversations', { c_title: 'Hello', c_status: 'open' })).json()._id;
  fileId = (await admin.post('/c_patientfiles', { c_name: 'File', c_mrn: 'M-9' })).json()._id;
  await admin.post('/connections', { context: { _id: fileId, object: 'c_patientfile' }, access: 4 });
  const orgId = h.svc.orgs.byCode('demo')!.id;
  const { app, secret } = await h.svc.apps.create(
    orgId,
    'signing',
    { label: 'backend', principalId: adminId },
    h.svc.nowIso(),
  );
  signing = { key: app.key, secret: secret! };
});
afterAll(async () => h.close());

const HOST = '127.0.0.1:7788';
/** The session client's credentials as headers (its cookie jar is private: log in again per client). */
const sessionHeaders = (client: TestClient, res: LightMyRequestResponse) => ({
  'service-client-key': h.consoleAppKey,
  cookie: res.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
  ...(client.csrf ? { 'service-csrf-token': client.csrf } : {}),
});

type Case = () => Promise<InjectOptions> | InjectOptions;

/** Sends `make()` both ways; returns the direct path's answer after checking they agree. */
async function both(make: Case, takes: boolean): Promise<LightMyRequestResponse> {
  const viaFastify = await h.server.inject(await make());
  const second = await make(); // before clearing: making a case may log in, which is a request too
  handle.mockClear();
  const viaDispatch = await injectAsClient(h.server, second);
  expect(handle.mock.results.map((r) => r.value)).toEqual([takes]);
  expect(comparable(viaDispatch)).toEqual(comparable(viaFastify));
  return viaDispatch;
}

function comparable(res: LightMyRequestResponse) {
  const { date: _date, ...headers } = res.headers;
  // Each side logged in on its own: the session's CSRF token differs, its presence must not.
  if (typeof headers['service-csrf-token'] === 'string') headers['service-csrf-token'] = '(a session token)';
  const body = res.body.replace(/"requestId":"[0-9a-f]+"/, '"requestId":"…"');
  return { status: res.statusCode, headers, body };
}

const get = (path: string, headers: Record<string, string> = {}): InjectOptions => ({
  method: 'GET',
  url: `/demo/v2${path}`,
  headers: { host: HOST, ...headers },
});

/** A fresh admin session per call (a second login would end the first: loggedInElsewhere). */
async function adminSession(): Promise<Record<string, string>> {
  const res = await admin.login();
  return sessionHeaders(admin, res);
}

let nonce = 0;
function signedHeaders(path: string, version: 1 | 2): Record<string, string> {
  const n = `direct${String(++nonce).padStart(10, '0')}`;
  const ts = h.clock.now();
  const signature = signRequest({
    apiKey: signing.key,
    apiSecret: signing.secret,
    url: `/demo/v2${path}`,
    method: 'GET',
    timestampMs: ts,
    version,
    nonce: n,
  });
  return {
    'service-client-key': signing.key,
    'service-client-signature': signature,
    'service-client-timestamp': String(ts),
    'service-client-nonce': n,
    ...(version === 2 ? { 'service-client-signature-version': '2' } : {}),
  };
}

describe('requests the direct path answers, exactly as Fastify does', () => {
  it('reads a record over a session: its stored text, the session headers', async () => {
    const res = await both(async () => get(`/accounts/${userId}`, await adminSession()), true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: userId, object: 'account', email: 'direct.user@example.test' });
    expect(res.headers['service-csrf-token']).toBeTypeOf('string');
  });

  it('reads custom records, upper-case ids and records with list properties', async () => {
    expect(
      (await both(async () => get(`/c_conversations/${conversationId}`, await adminSession()), true)).json(),
    ).toMatchObject({ c_title: 'Hello' });
    const upper = await both(async () => get(`/accounts/${userId.toUpperCase()}`, await adminSession()), true);
    expect(upper.json()._id).toBe(userId);
    const file = await both(async () => get(`/c_patientfiles/${fileId}`, await adminSession()), true);
    expect(file.json().connections).toMatchObject({ object: 'list', data: [{ access: 4 }] });
  });

  it('answers the same faults: no record, a bad id, no collection, no org, no caller, no app', async () => {
    const missing = await both(async () => get(`/accounts/${'0'.repeat(24)}`, await adminSession()), true);
    expect(missing.json()).toMatchObject({ status: 404, errCode: 'service.notFound.instance' });
    const badId = await both(async () => get('/accounts/zzz', await adminSession()), true);
    expect(badId.json()).toMatchObject({ status: 400, errCode: 'service.invalidArgument.invalidObjectId' });
    const noCollection = await both(async () => get(`/c_nothing/${userId}`, await adminSession()), true);
    expect(noCollection.json()).toMatchObject({ status: 404, errCode: 'service.notFound.object' });
    const noOrg = await both(() => ({ ...get(''), url: `/nope/v2/accounts/${userId}` }), true);
    expect(noOrg.json()).toMatchObject({ status: 404, errCode: 'service.notFound.org' });
    const anonymous = await both(() => get(`/accounts/${userId}`, { 'service-client-key': h.consoleAppKey }), true);
    expect(anonymous.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.notLoggedIn' });
    const noApp = await both(() => get(`/accounts/${userId}`, { 'service-client-key': 'not-a-key' }), true);
    expect(noApp.json()).toMatchObject({ status: 404, errCode: 'service.notFound.app' });
  });

  it('hides what the caller cannot read exactly as the route does', async () => {
    const login = async () => sessionHeaders(user, await user.login('direct.user@example.test', USER_PASSWORD));
    expect((await both(async () => get(`/accounts/${userId}`, await login()), true)).statusCode).toBe(200);
    const other = await both(async () => get(`/accounts/${adminId}`, await login()), true);
    expect(other.json()).toMatchObject({ status: 404, errCode: 'service.notFound.instance' });
  });

  it('reads with bearer tokens: any scope, a property scope, a counted token, a foreign audience', async () => {
    const bearer = (token: string) => get(`/accounts/${userId}`, { authorization: `Bearer ${token}` });
    const all = await both(
      async () => bearer(await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] })),
      true,
    );
    expect(all.json().email).toBe('direct.user@example.test');
    const nameOnly = ['object.read.account.*.name'];
    const scoped = await both(
      async () => bearer(await mint(admin, adminId, { app: h.consoleAppKey, scope: nameOnly })),
      true,
    );
    expect(scoped.json().name).toBeDefined();
    expect(scoped.json().email).toBeUndefined();
    const counted = async () => bearer(await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'], maxUses: 1 }));
    expect((await both(counted, true)).statusCode).toBe(200);
    const token = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] });
    const foreign = await both(
      () => ({ ...bearer(token), headers: { host: '127.0.0.1:9999', authorization: `Bearer ${token}` } }),
      true,
    );
    expect(foreign.json()).toMatchObject({ errCode: 'service.accessDenied.invalidJwt' });
  });

  it('reads with signed requests of both versions, and refuses a replay and a wrong signature', async () => {
    for (const version of [1, 2] as const) {
      const path = `/accounts/${userId}`;
      const res = await both(() => get(path, signedHeaders(path, version)), true);
      expect(res.json()._id, res.body).toBe(userId);
    }
    const path = `/accounts/${userId}`;
    const replayed = signedHeaders(path, 2);
    expect((await h.server.inject(get(path, replayed))).statusCode).toBe(200);
    handle.mockClear();
    const again = await injectAsClient(h.server, get(path, replayed));
    expect(handle.mock.results[0]!.value).toBe(true);
    expect(again.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.invalidRequestSignature' });
    const wrong = await both(
      () => get(path, { ...signedHeaders(path, 2), 'service-client-signature': 'ab'.repeat(32) }),
      true,
    );
    expect(wrong.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.invalidRequestSignature' });
  });

  it("applies the app's CORS origins and IP lists", async () => {
    const app = h.svc.apps.byKey(h.consoleAppKey)!;
    const stranger = await both(
      async () => get(`/accounts/${userId}`, { ...(await adminSession()), origin: 'http://elsewhere.test' }),
      true,
    );
    expect(stranger.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.cors' });
    h.svc.apps.update(app, { corsOrigins: ['http://friend.test'] });
    const friend = await both(
      async () => get(`/accounts/${userId}`, { ...(await adminSession()), origin: 'http://friend.test' }),
      true,
    );
    expect(friend.headers['access-control-allow-origin']).toBe('http://friend.test');
    const sessionForDeny = await adminSession();
    h.svc.apps.update(h.svc.apps.byKey(h.consoleAppKey)!, { corsOrigins: [], ipDeny: ['127.0.0.0/8'] });
    try {
      const barred = await both(() => get(`/accounts/${userId}`, sessionForDeny), true);
      expect(barred.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.ipAddress' });
    } finally {
      h.svc.apps.update(h.svc.apps.byKey(h.consoleAppKey)!, { ipDeny: [] });
    }
  });

  it('answers an unexpected error as the error handler does: a 500 with a request id', async () => {
    const headers = await adminSession();
    const getText = vi.spyOn(h.svc.store, 'getText').mockImplementation(() => {
      throw new Error('disk on fire');
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const res = await both(() => get(`/accounts/${userId}`, headers), true);
      expect(res.json()).toMatchObject({ status: 500, errCode: 'service.error' });
      expect(res.json().requestId).toMatch(/^[0-9a-f]{16}$/);
      expect(stderr.mock.calls.map(([line]) => String(line)).join('')).toContain('disk on fire');
    } finally {
      getText.mockRestore();
      stderr.mockRestore();
    }
  });
});

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('lists and queries the direct path answers, exactly as Fastify does', () => {
  it('lists with where, sort and limit over a session, a token and signed requests', async () => {
    const path = `/accounts?where=${q({ email: { $regex: '/^direct/' } })}&sort=${q({ email: 1 })}&limit=5`;
    const session = await both(async () => get(path, await adminSession()), true);
    expect(session.json()).toMatchObject({ object: 'list', data: [{ _id: userId }], hasMore: false });
    const token = await both(
      async () =>
        get(path, { authorization: `Bearer ${await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] })}` }),
      true,
    );
    expect(token.body).toBe(session.body);
    for (const version of [1, 2] as const) {
      const signed = await both(() => get(path, signedHeaders(path, version)), true);
      expect(signed.body).toBe(session.body);
    }
  });

  it('reshapes for a property-scoped token and for a reader who sees less', async () => {
    const path = '/accounts?limit=20';
    const scope = ['object.read.account.*.name'];
    const scoped = await both(
      async () => get(path, { authorization: `Bearer ${await mint(admin, adminId, { app: h.consoleAppKey, scope })}` }),
      true,
    );
    expect(scoped.json().data.length).toBeGreaterThan(1);
    expect(scoped.json().data.every((r: { email?: string }) => r.email === undefined)).toBe(true);
    const login = async () => sessionHeaders(user, await user.login('direct.user@example.test', USER_PASSWORD));
    const reader = await both(async () => get(path, await login()), true);
    expect(reader.json().data.map((r: { _id: string }) => r._id)).toEqual([userId]);
  });

  it('answers aggregations, paths, expansions and repeated arguments as the route does', async () => {
    const pipeline = q([{ $group: { _id: 'c_status', count: { $count: '_id' } } }]);
    const grouped = await both(async () => get(`/c_conversations?pipeline=${pipeline}`, await adminSession()), true);
    expect(grouped.json().data).toEqual([{ _id: 'open', count: 1, object: 'c_conversation' }]);
    const paths = await both(
      async () => get('/accounts?paths[]=email&paths[]=name&limit=3', await adminSession()),
      true,
    );
    expect(Object.keys(paths.json().data[0]).sort()).toEqual(['_id', 'email', 'name', 'object']);
    const one = await both(async () => get(`/accounts/${userId}?paths[]=email`, await adminSession()), true);
    expect(one.json()).toEqual({ _id: userId, object: 'account', email: 'direct.user@example.test' });
    const expanded = await both(async () => get(`/connections?expand[]=context&limit=5`, await adminSession()), true);
    expect(expanded.statusCode).toBe(200);
  });

  it('answers the same faults: bad where, a bracketed argument, a repeated one, no collection, no caller', async () => {
    const badWhere = await both(async () => get('/accounts?where=%7Bnot-json', await adminSession()), true);
    expect(badWhere.json()).toMatchObject({ status: 400 });
    const bracketed = await both(async () => get('/accounts?where[email]=x', await adminSession()), true);
    expect(bracketed.json()).toMatchObject({ status: 400, errCode: 'service.invalidArgument.query' });
    const twice = await both(async () => get('/accounts?limit=1&limit=2', await adminSession()), true);
    expect(twice.json()).toMatchObject({ status: 400, errCode: 'service.invalidArgument.query' });
    const noCollection = await both(async () => get('/c_nothing?limit=1', await adminSession()), true);
    expect(noCollection.json()).toMatchObject({ status: 404, errCode: 'service.notFound.object' });
    const anonymous = await both(() => get('/accounts?limit=1', { 'service-client-key': h.consoleAppKey }), true);
    expect(anonymous.json()).toMatchObject({ status: 403, errCode: 'service.accessDenied.notLoggedIn' });
  });
});

describe('requests the direct path leaves to Fastify', () => {
  it.each([
    ['a trailing slash', (id: string) => get(`/accounts/${id}/`)],
    ["a list's trailing slash", () => get('/accounts/?limit=1')],
    ['percent-encoding in the path, with a query string', () => get('/account%73?limit=1')],
    ['percent-encoding', (id: string) => get(`/accounts/${id.slice(0, 23)}%3${id.slice(23)}`)],
    ['a doubled slash', (id: string) => get(`//accounts/${id}`)],
    ['a static route', () => get('/accounts/me')],
    ['another parametric route', () => get('/schemas/account')],
    ['a script route', () => get('/routes/anything')],
    ['the console', (id: string) => ({ ...get(''), url: `/console/v2/accounts/${id}` })],
    ['HEAD', (id: string) => ({ ...get(`/accounts/${id}`), method: 'HEAD' as const })],
    ['a foreign Host', (id: string) => ({ ...get(`/accounts/${id}`), headers: { host: 'evil.test' } })],
    ['a body', (id: string) => ({ ...get(`/accounts/${id}`), payload: '{}' })],
    ["a URL over the request guard's bound", () => get(`/accounts?x=${'a'.repeat(MAX_URL_LENGTH)}`)],
  ])('%s', async (_name, make) => {
    const session = await adminSession();
    const withSession = async () => {
      const options = make(userId);
      return { ...options, headers: { ...session, ...(options.headers as Record<string, string>) } };
    };
    await both(withSession, false);
  });

  it('leaves every request of a closing server to Fastify, which answers 503', async () => {
    const own = await createHarness();
    await own.server.ready();
    await own.server.close();
    handle.mockClear();
    // Straight to the dispatch: `injectAsClient` would wait for a server that has closed.
    const res = await inject(own.server.dispatch, {
      method: 'GET',
      url: `/demo/v2/accounts/${userId}`,
      headers: { host: HOST },
    });
    expect(handle.mock.results.map((r) => r.value)).toEqual([false]);
    expect(res.statusCode).toBe(503);
    await own.close();
  });
});

describe('over real HTTP', () => {
  it('answers on the listening server with the headers Fastify gives every answer', async () => {
    const port = await listen(h.server, 0);
    const token = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] });
    handle.mockClear();
    const res = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const headers = { authorization: `Bearer ${token}`, host: HOST };
        const req = httpRequest({ port, path: `/demo/v2/accounts/${userId}`, headers }, (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        });
        req.on('error', reject).end();
      },
    );
    expect(handle.mock.results.map((r) => r.value)).toEqual([true]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['keep-alive']).toBe('timeout=72');
    expect((JSON.parse(res.body) as { _id: string })._id).toBe(userId);
    expect(h.server.server.keepAliveTimeout).toBe(72_000);
  });

  it('routes with the very find-my-way Fastify routes with', () => {
    const here = createRequire(import.meta.url);
    const fromFastify = createRequire(here.resolve('fastify')).resolve('find-my-way');
    expect(here.resolve('find-my-way')).toBe(fromFastify);
  });
});
