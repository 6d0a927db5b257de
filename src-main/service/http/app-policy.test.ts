/**
 * Issue #13 item 4: the app settings the console shows are applied — readOnly, ipAllow / ipDeny
 * (CIDR, tested with the loopback range every request here comes from) and corsOrigins.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';
import type { App, AppSettings } from '../apps/apps.js';

let h: Harness;
let admin: TestClient;
let app: App;
let userId: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  app = h.svc.apps.byKey(h.consoleAppKey)!;
  userId = await createUser(admin, 'policy.user@example.test');
});
afterEach(async () => {
  await h.close();
});

const set = (patch: Partial<AppSettings>) => h.svc.apps.update(h.svc.apps.byKey(h.consoleAppKey)!, patch);

describe('readOnly', () => {
  it('refuses every write of a token minted for the app and of a session through it, and still reads', async () => {
    const token = new BearerClient(h, await mint(admin, userId, { app: app.key, scope: ['*'], permanent: true }));
    set({ readOnly: true });
    for (const res of [
      await token.patch(`/accounts/${userId}`, { name: { first: 'X' } }),
      await admin.patch(`/accounts/${userId}`, { name: { first: 'Y' } }),
      await admin.post('/accounts', { email: 'other@example.test', password: 'another long password' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().errCode).toBe('service.accessDenied.appReadOnly');
    }
    expect((await token.get('/accounts/me')).statusCode).toBe(200);
    expect((await admin.get('/accounts/me')).statusCode).toBe(200);
  });

  it('decides on the path alone: a query naming the login or logout route does not open a write', async () => {
    const made = (await admin.post('/c_conversations', { c_title: 'kept' })).json()._id as string;
    set({ readOnly: true });
    const sneaked = [
      await admin.post('/c_conversations?x=/v2/accounts/login', { c_title: 'sneaked' }),
      await admin.patch(`/c_conversations/${made}?x=/v2/accounts/me/logout`, { c_title: 'changed' }),
      await admin.request('DELETE', `/c_conversations/${made}?x=/v2/accounts/login`),
      await admin.post('/c_conversations/db/insertOne?then=/db/cursor', { document: { c_title: 'sneaked' } }),
      await admin.post('/c_conversations/db/insertOne', { document: { c_title: 'sneaked' } }),
      await admin.post('/c_conversations/db/bulk', { ops: [{ operation: 'count' }] }),
    ];
    for (const res of sneaked)
      expect(res.json(), res.body).toMatchObject({ errCode: 'service.accessDenied.appReadOnly' });
    set({ readOnly: false });
    const left = (await admin.get('/c_conversations')).json().data as { c_title: string }[];
    expect(left.map((r) => r.c_title)).toEqual(['kept']);
  });

  it("answers the driver's reads, the original clients' way of reading (POST …/db/cursor, count, readOne)", async () => {
    await admin.post('/c_conversations', { c_title: 'one' });
    set({ readOnly: true });
    const cursor = await admin.post('/c_conversations/db/cursor', {});
    expect(cursor.statusCode, cursor.body).toBe(200);
    expect(cursor.body).toContain('"one"');
    expect((await admin.post('/c_conversations/db/count', {})).json()).toMatchObject({ data: 1 });
    expect((await admin.post('/c_conversations/db/readOne', {})).json()).toMatchObject({ c_title: 'one' });
    // logging out still works, and the app stays read-only for the next session
    expect((await admin.post('/accounts/me/logout', {})).statusCode).toBe(200);
  });

  it('a GET script route through the app reads, and its writes are refused like the HTTP ones', async () => {
    const made = await admin.post('/scripts', {
      label: 'writes on get',
      type: 'route',
      active: true,
      configuration: { method: 'get', path: '/ro-probe', acl: ['account.public'] },
      script: `
        const before = org.objects.c_conversation.count();
        let refused = null;
        try { org.objects.c_conversation.insertOne({ c_title: 'from a GET' }).execute() } catch (e) { refused = e.errCode }
        return { before, refused }`,
    });
    expect(made.statusCode, made.body).toBe(200);
    await admin.post('/c_conversations', { c_title: 'one' });
    set({ readOnly: true });
    const res = await admin.get('/routes/ro-probe');
    expect(res.json(), res.body).toMatchObject({ before: 1, refused: 'service.accessDenied.appReadOnly' });
    set({ readOnly: false });
    expect((await admin.get('/c_conversations')).json().data).toHaveLength(1);
    // and through a writable app the same route writes
    expect((await admin.get('/routes/ro-probe')).json()).toMatchObject({ before: 1, refused: null });
    expect((await admin.get('/c_conversations')).json().data).toHaveLength(2);
  });
});

describe('ipAllow / ipDeny', () => {
  it('refuses a caller in a denied range or outside the allowed ones', async () => {
    set({ ipDeny: ['127.0.0.0/8'] });
    expect((await admin.get('/accounts/me')).json().errCode).toBe('service.accessDenied.ipAddress');
    set({ ipDeny: [], ipAllow: ['10.0.0.0/8'] });
    expect((await admin.get('/accounts/me')).statusCode).toBe(403);
    set({ ipAllow: ['10.0.0.0/8', '127.0.0.0/8'] });
    expect((await admin.get('/accounts/me')).statusCode).toBe(200);
    set({ ipAllow: ['127.0.0.1'], ipDeny: ['10.1.2.3'] });
    expect((await admin.get('/accounts/me')).statusCode).toBe(200);
  });
});

describe('corsOrigins', () => {
  const preflight = (origin: string) =>
    h.server.inject({
      method: 'OPTIONS',
      url: '/demo/v2/accounts/me',
      headers: {
        host: '127.0.0.1:7788',
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'service-client-key',
      },
    });

  it('answers preflights and sets Access-Control-Allow-Origin for exactly the listed origins', async () => {
    set({ corsOrigins: ['https://allowed.example'] });
    const ok = await preflight('https://allowed.example');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://allowed.example');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const refused = await preflight('https://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const real = await admin.get('/accounts/me', { origin: 'https://allowed.example' });
    expect(real.statusCode).toBe(200);
    expect(real.headers['access-control-allow-origin']).toBe('https://allowed.example');
    const foreign = await admin.get('/accounts/me', { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // Same-origin requests (the console itself) are not cross-origin.
    expect((await admin.get('/accounts/me', { origin: 'http://127.0.0.1:7788' })).statusCode).toBe(200);
  });
});
