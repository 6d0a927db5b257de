import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

async function adminToken(scope: string[]): Promise<string> {
  const me = (await admin.get('/accounts/me')).json();
  const res = await admin.post(`/accounts/${me._id}/tokens`, { app: h.consoleAppKey, scope });
  expect(res.statusCode).toBe(200);
  return res.json().data as string;
}

describe('admin routes under token scopes', () => {
  it("need admin.read to read and admin.update to write, even for an administrator's token", async () => {
    const readOnly = await adminToken(['admin.read', 'object.read.account']);
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    const anon = new TestClient(h, '');
    expect((await anon.get('/apps', bearer(readOnly))).statusCode).toBe(200);
    const write = await anon.post('/demo-data/jobs', { accounts: 1 }, bearer(readOnly));
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    const objectsOnly = await adminToken(['object.read.account']);
    expect((await anon.get('/apps', bearer(objectsOnly))).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
    const full = await adminToken(['admin.*']);
    expect((await anon.post('/demo-data/jobs', { accounts: 1 }, bearer(full))).statusCode).toBe(200);
  });

  it('refuses a signature sent without Service-Client-Key', async () => {
    const res = await new TestClient(h, '').get('/accounts', {
      'service-client-signature': 'a'.repeat(64),
      'service-client-timestamp': String(h.clock.now()),
      'service-client-nonce': 'abcdefghijklmnop',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.invalidRequestSignature' });
  });
});

describe('/accounts/me under a property-limited token', () => {
  it('shows only the properties the token may read, with the caller level', async () => {
    const me = (await admin.get('/accounts/me')).json();
    expect(me).toMatchObject({ access: 8, email: expect.any(String) });
    const res = await admin.post(`/accounts/${me._id}/tokens`, {
      app: h.consoleAppKey,
      scope: ['object.read.account.*.name'],
    });
    const anon = new TestClient(h, '');
    const limited = (await anon.get('/accounts/me', { authorization: `Bearer ${res.json().data}` })).json();
    expect(limited.name).toEqual(me.name);
    expect(limited.email).toBeUndefined();
    expect(limited.roles).toBeUndefined();
  });
});
