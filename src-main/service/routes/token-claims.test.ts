import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let aliceId: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test');
});
afterEach(async () => h.close());

describe('token claims for the original clients (docs/tokens.md)', () => {
  it('includeEmail adds service/eml; aud is the base URL as called, port included; iss the app key', async () => {
    const jwt = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'], includeEmail: true });
    const claims = decodeJwt(jwt);
    expect(claims['service/eml']).toBe('alice@example.test');
    expect(claims.aud).toBe('http://127.0.0.1:7788/demo/v2');
    expect(claims.iss).toBe(h.consoleAppKey);
    const plain = decodeJwt(await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'] }));
    expect(plain['service/eml']).toBeUndefined();
    const bad = await admin.post(`/accounts/${aliceId}/tokens`, { app: h.consoleAppKey, scope: [], includeEmail: 1 });
    expect(bad.json()).toMatchObject({ path: 'includeEmail' });
  });

  it('verifies aud against the base URL as called; another port is another audience', async () => {
    const jwt = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'] });
    expect((await new BearerClient(h, jwt).get('/accounts/me')).statusCode).toBe(200);
    const elsewhere = await h.server.inject({
      method: 'GET',
      url: '/demo/v2/accounts/me',
      headers: { host: '127.0.0.1:9999', authorization: `Bearer ${jwt}` },
    });
    expect(elsewhere.json()).toMatchObject({ errCode: 'service.accessDenied.invalidJwt' });
  });

  it('accepts a Bearer request that also sends Service-Client-Key equal to iss; another key is notFound.app', async () => {
    const jwt = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'] });
    const same = new BearerClient(h, jwt, { 'service-client-key': h.consoleAppKey });
    expect((await same.get('/accounts/me')).statusCode).toBe(200);
    const other = new BearerClient(h, jwt, { 'service-client-key': 'x'.repeat(22) });
    expect((await other.get('/accounts/me')).json()).toMatchObject({ errCode: 'service.notFound.app' });
  });

  it('sets the fingerprint cookie at Path=/ and the session cookie at Path=/<org>', async () => {
    const client = new TestClient(h);
    const res = await client.login();
    const cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
    expect(cookies['service.fingerprint']?.path).toBe('/');
    const session = res.cookies.find((c) => c.name !== 'service.fingerprint');
    expect(session?.path).toBe('/demo');
  });
});
