/** Account properties the service fills: `key.fingerprint` (a UUID) and `inherited_roles` (from the role graph). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('account key.fingerprint', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('is generated as a UUID for every new account, and a malformed one is a validation fault', async () => {
    const id = await createUser(admin, 'keyed@example.test');
    const account = (await admin.get(`/accounts/${id}`)).json();
    expect(account.key.fingerprint).toMatch(UUID);
    const other = await createUser(admin, 'keyed2@example.test');
    expect((await admin.get(`/accounts/${other}`)).json().key.fingerprint).not.toBe(account.key.fingerprint);

    const bad = await admin.post('/accounts', {
      email: 'badkey@example.test',
      password: USER_PASSWORD,
      key: { fingerprint: 'not a uuid' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().faults[0]).toMatchObject({ path: 'key.fingerprint', errCode: 'service.validation.format' });
    const patched = await admin.patch(`/accounts/${id}`, { key: { fingerprint: 'free text' } });
    expect(patched.statusCode).toBe(400);
    const good = await admin.patch(`/accounts/${id}`, { key: { fingerprint: '0f8fad5b-d9cb-469f-a165-70867728950e' } });
    expect(good.statusCode, good.body).toBe(200);
  });
});

describe('inherited_roles', () => {
  it('is filled from the role graph and follows changes to it', async () => {
    const base = (await admin.post('/roles', { name: 'Base', scopes: [] })).json();
    const mid = (await admin.post('/roles', { name: 'Mid', include: [base._id] })).json();
    const top = (await admin.post('/roles', { name: 'Top', include: [mid._id] })).json();
    const id = await createUser(admin, 'graph@example.test', { roles: [top._id] });
    const inherited = async () => (await admin.get(`/accounts/${id}`)).json().inherited_roles as string[];
    expect((await inherited()).sort()).toEqual([base._id, mid._id].sort());
    // In lists too (written out from stored text).
    const listed = (await admin.get(`/accounts?${listQuery({ where: { email: 'graph@example.test' } })}`)).json();
    expect(listed.data[0].inherited_roles.sort()).toEqual([base._id, mid._id].sort());

    // The graph changes: Mid no longer includes Base.
    expect((await admin.patch(`/roles/${mid._id}`, { include: [] })).statusCode).toBe(200);
    expect(await inherited()).toEqual([mid._id]);
    // A role deleted from the graph leaves it.
    expect((await admin.delete(`/roles/${mid._id}`)).statusCode).toBe(200);
    expect(await inherited()).toEqual([]);
    // Roles held directly are not inherited; the account's own role change re-derives.
    expect((await admin.patch(`/accounts/${id}`, { roles: [top._id, base._id] })).statusCode).toBe(200);
    expect(await inherited()).toEqual([]);
    await admin.patch(`/roles/${top._id}`, { include: [base._id] });
    expect(await inherited()).toEqual([]);
    expect((await admin.patch(`/accounts/${id}`, { roles: [top._id] })).statusCode).toBe(200);
    expect(await inherited()).toEqual([base._id]);
  });
});
