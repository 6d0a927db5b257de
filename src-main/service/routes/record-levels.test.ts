/**
 * The access level a reader sees on a record: connections keep their stored `access` apart from
 * the caller's `accessLevel`, and a token's scopes and the caller's level agree on every read path
 * (the record, /accounts/me, /accounts/status, login).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { patientFileWithConnections } from '../testing/records-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

/** How often `"key":` occurs at the top level of each object in a JSON text (duplicates show up raw). */
function countKey(text: string, key: string): number {
  return text.split(`"${key}":`).length - 1;
}

describe('connection records: the caller level and the stored level have a key each', () => {
  it('a connection shows its stored `access` once and the caller level as `accessLevel`', async () => {
    const fileId = await patientFileWithConnections(admin, [3]);
    // The collection list (written out from stored text) and a single read.
    const list = await admin.get('/connections');
    expect(countKey(list.body, 'access')).toBe(1);
    expect(list.json().data[0]).toMatchObject({ access: 3, accessLevel: 8 });
    const id = list.json().data[0]._id as string;
    const one = await admin.get(`/connections/${id}`);
    expect(countKey(one.body, 'access')).toBe(1);
    expect(one.json()).toMatchObject({ access: 3, accessLevel: 8 });
    // As a list property of the patient file.
    const file = await admin.get(`/c_patientfiles/${fileId}`);
    expect(file.json().access).toBe(8);
    expect(file.json().connections.data[0]).toMatchObject({ access: 3, accessLevel: 8 });
    // Other objects keep `access` as the caller's level and carry no `accessLevel`.
    expect(file.json().accessLevel).toBeUndefined();
  });
});

describe('scopes and levels agree everywhere', () => {
  it('a token with no scopes gets accessDenied.scope from /accounts/me, like from the record', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    const token = await mint(admin, aliceId, { app: h.consoleAppKey, scope: [] });
    const bearer = new BearerClient(h, token);
    const byId = await bearer.get(`/accounts/${aliceId}`);
    expect(byId.json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    const me = await bearer.get('/accounts/me');
    expect(me.statusCode).toBe(403);
    expect(me.json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    // Status still says who is logged in, without an account the token may not read.
    expect((await bearer.get('/accounts/status')).json()).toEqual({
      object: 'result',
      data: { loggedin: true, operator: false },
    });
    // A token that may read the name gets just that.
    const named = new BearerClient(
      h,
      await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['object.read.account.*.name'] }),
    );
    const mine = (await named.get('/accounts/me')).json();
    expect(mine.name).toBeDefined();
    expect(mine.email).toBeUndefined();
    const status = (await named.get('/accounts/status')).json();
    expect(status.data).toMatchObject({ loggedin: true, account: { name: mine.name } });
    expect(status.data.account.email).toBeUndefined();
  });

  it("an administrator's level is 8 at login as in every read; a user's is the same at login and in reads", async () => {
    await createUser(admin, 'bob@example.test');
    const fresh = new TestClient(h);
    const login = (await fresh.login()).json();
    expect(login.access).toBe(8);
    expect((await fresh.get('/accounts/me')).json().access).toBe(8);
    expect((await fresh.get(`/accounts/${login._id}`)).json().access).toBe(8);

    const bob = new TestClient(h);
    const bobLogin = (await bob.login('bob@example.test', USER_PASSWORD)).json();
    const bobMe = (await bob.get('/accounts/me')).json();
    expect(bobLogin.access).toBe(bobMe.access);
  });
});
