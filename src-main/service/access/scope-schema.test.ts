/** Issue #13, item 19: chains naming a type or property the org lacks are refused when minted or saved. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('scope chains against the schema', () => {
  it('refuses minting a token for object.read.accounts, suggesting account', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    const res = await admin.post(`/accounts/${aliceId}/tokens`, {
      app: h.consoleAppKey,
      scope: ['object.read.account.*.name', 'object.read.accounts'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scope[1]' });
    expect(res.json().reason).toMatch(/did you mean "account"/);
    const bad = await admin.post(`/accounts/${aliceId}/tokens`, {
      app: h.consoleAppKey,
      scope: ['object.read.account.*.shoe_size'],
    });
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scope[0]' });
    const ok = await admin.post(`/accounts/${aliceId}/tokens`, {
      app: h.consoleAppKey,
      scope: ['object.read.account.*.name.first'],
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses saving a role whose scopes name a missing type, on create and on update', async () => {
    const created = await admin.post('/roles', { name: 'Reader', code: 'reader', scopes: ['object.read.accounts'] });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scopes[0]' });
    const role = await admin.post('/roles', { name: 'Reader', code: 'reader', scopes: ['object.read.account'] });
    expect(role.statusCode).toBe(200);
    const id = (role.json() as { _id: string })._id;
    const patched = await admin.patch(`/roles/${id}`, { scopes: ['object.read.account', 'object.update.c_nothing'] });
    expect(patched.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scopes[1]' });
    expect((await admin.get(`/roles/${id}`)).json()).toMatchObject({ scopes: ['object.read.account'] });
  });
});
