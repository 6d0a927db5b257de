/**
 * The spec's loose ends (issue #15 item 6): each test here failed before its fix.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

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

async function patientFileWithConnections(levels: number[]) {
  const file = (await admin.post('/c_patientfiles', { c_name: 'File' })).json();
  for (const access of levels) {
    const res = await admin.post('/connections', { context: { _id: file._id, object: 'c_patientfile' }, access });
    expect(res.statusCode, res.body).toBe(200);
  }
  return file._id as string;
}

describe('connection records: the caller level and the stored level have a key each', () => {
  it('a connection shows its stored `access` once and the caller level as `accessLevel`', async () => {
    const fileId = await patientFileWithConnections([3]);
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

describe('GET /accounts/me and list properties', () => {
  it('honours paths[] and can project access and owner', async () => {
    const me = await admin.get(`/accounts/me?${listQuery({ paths: ['email', 'access'] })}`);
    expect(me.statusCode, me.body).toBe(200);
    expect(Object.keys(me.json()).sort()).toEqual(['_id', 'access', 'email', 'object']);
    const conv = (await admin.post('/c_conversations', { c_title: 'x' })).json();
    const read = await admin.get(`/c_conversations/${conv._id}?${listQuery({ paths: ['owner', 'access'] })}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(Object.keys(read.json()).sort()).toEqual(['_id', 'access', 'object', 'owner']);
    const list = await admin.get(`/c_conversations?${listQuery({ paths: ['owner'] })}`);
    expect(list.json().data[0].owner).toMatchObject({ object: 'account' });
    expect(list.json().data[0].c_title).toBeUndefined();
  });

  it('collection lists include list properties when paths[] names them, bounded', async () => {
    await patientFileWithConnections([3, 4, 5]);
    const plain = (await admin.get('/c_patientfiles')).json();
    expect(plain.data[0].connections).toBeUndefined();
    const withLists = await admin.get(
      `/c_patientfiles?${listQuery({ paths: ['c_name', 'connections'] })}&${listQuery({ limit: 2, sort: { access: 1 } }, 'connections.')}`,
    );
    expect(withLists.statusCode, withLists.body).toBe(200);
    const nested = withLists.json().data[0].connections;
    expect(nested).toMatchObject({ object: 'list', hasMore: true });
    expect(nested.data.map((c: { access: number }) => c.access)).toEqual([3, 4]);
    // limit × connections.limit above 10,000 is refused, naming the list property's argument.
    const tooMany = await admin.get(
      `/c_patientfiles?${listQuery({ paths: ['connections'], limit: 1000 })}&connections.limit=11`,
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'connections.limit' });
  });

  it('list-property faults carry the full path', async () => {
    const fileId = await patientFileWithConnections([3]);
    const res = await admin.get(`/c_patientfiles/${fileId}?connections.limit=5000`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'connections.limit' });
    const where = await admin.get(`/c_patientfiles/${fileId}?connections.where=${encodeURIComponent('{"nope":1}')}`);
    expect(where.statusCode).toBe(400);
    expect(String(where.json().path)).toMatch(/^connections\.where/);
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
    expect((await bearer.get('/accounts/status')).json()).toEqual({ object: 'result', data: { loggedin: true } });
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

describe('GET /schemas takes the list arguments', () => {
  it('where, sort, skip, limit, paths[] and hasMore', async () => {
    const all = (await admin.get('/schemas')).json();
    expect(all.data.length).toBeGreaterThan(3);
    const custom = await admin.get(
      `/schemas?${listQuery({ where: { custom: true }, sort: { name: 1 }, limit: 1, paths: ['name'] })}`,
    );
    expect(custom.statusCode, custom.body).toBe(200);
    expect(custom.json()).toEqual({
      object: 'list',
      data: [{ object: 'schema', name: 'c_conversation' }],
      hasMore: true,
    });
    const second = (
      await admin.get(`/schemas?${listQuery({ where: { custom: true }, sort: { name: 1 }, skip: 1 })}`)
    ).json();
    expect(second.data.map((s: { name: string }) => s.name)).toEqual(['c_patientfile']);
    expect(second.hasMore).toBe(false);
    const byRegex = (await admin.get(`/schemas?${listQuery({ where: { name: { $regex: '/^acc/' } } })}`)).json();
    expect(byRegex.data.map((s: { name: string }) => s.name)).toEqual(['account']);
    const bad = await admin.get('/schemas?limit=5000');
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'limit' });
  });
});

describe('object definitions set their default and create ACLs, enforced', () => {
  it('a role given read in the default ACL reads; the create ACL decides who creates', async () => {
    const role = (await admin.post('/roles', { name: 'Nurse' })).json();
    expect(role._id).toMatch(/^[0-9a-f]{24}$/);
    await createUser(admin, 'nurse@example.test', { roles: [role._id] });
    await createUser(admin, 'other@example.test');
    const conv = (await admin.post('/c_conversations', { c_title: 'Ward' })).json();
    const nurse = new TestClient(h);
    await nurse.login('nurse@example.test', USER_PASSWORD);
    expect((await nurse.get(`/c_conversations/${conv._id}`)).statusCode).toBe(404);

    const set = await admin.patch('/schemas/c_conversation', {
      defaultAcl: [
        { type: 'owner', allow: 6 },
        { type: 'role', target: role._id, allow: 3 },
      ],
      createAcl: [{ type: 'role', target: role._id }],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().defaultAcl).toContainEqual({ type: 'role', target: role._id, allow: 3 });
    expect((await admin.get('/schemas/c_conversation')).json().createAcl).toEqual([
      { type: 'role', target: role._id, allow: 1 },
    ]);

    const read = await nurse.get(`/c_conversations/${conv._id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().access).toBe(3);
    expect((await nurse.get('/c_conversations')).json().data).toHaveLength(1);
    // Read is not update.
    expect((await nurse.patch(`/c_conversations/${conv._id}`, { c_title: 'x' })).statusCode).toBe(403);
    // The role may create; an account without it may not any more (the fallback let everyone).
    expect((await nurse.post('/c_conversations', { c_title: 'Mine' })).statusCode).toBe(200);
    const other = new TestClient(h);
    await other.login('other@example.test', USER_PASSWORD);
    const refused = await other.post('/c_conversations', { c_title: 'No' });
    expect(refused.statusCode).toBe(403);
    expect((await other.get(`/c_conversations/${conv._id}`)).statusCode).toBe(404);
  });

  it('validates ACL entries on POST and PATCH, naming each bad one', async () => {
    const bad = await admin.patch('/schemas/c_conversation', {
      defaultAcl: [
        { type: 'role', target: 'f'.repeat(24), allow: 3 },
        { type: 'owner', allow: 8 },
        { type: 'group', allow: 3 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().faults.map((f: { path: string }) => f.path)).toEqual([
      'defaultAcl[0].target',
      'defaultAcl[1].allow',
      'defaultAcl[2].type',
    ]);
    const created = await admin.post('/schemas', {
      name: 'c_note',
      properties: [{ name: 'c_text', type: 'String' }],
      defaultAcl: [{ type: 'account', target: '*', allow: 3 }],
      createAcl: [],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ defaultAcl: [{ type: 'account', target: '*', allow: 3 }], createAcl: [] });
    const refused = await admin.post('/schemas', { name: 'c_memo', createAcl: 'everyone' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().faults[0]).toMatchObject({ path: 'createAcl' });
  });
});

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

describe('the spec route by route: implemented, or kNotImplemented', () => {
  const id = 'a'.repeat(24);
  const DRIVER_OPERATIONS = ['cursor', 'count', 'readOne', 'insertOne', 'insertMany', 'updateOne', 'updateMany'].concat(
    ['patchOne', 'patchMany', 'deleteOne', 'deleteMany', 'bulk'],
  );
  /** Every route the three spec documents name, with where it is named. */
  const AUDIT: [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, source: string][] = [
    ['GET', '/accounts', 'service-interface Endpoints'],
    ['GET', '/c_conversations', 'service-interface Endpoints'],
    ['GET', `/c_patientfiles/${id}?connections.limit=5`, 'service-interface Endpoints'],
    ['GET', '/schemas', 'service-interface Endpoints'],
    ['GET', '/auth/certs/jwk', 'service-interface Endpoints'],
    ['GET', '/auth/certs/pem', 'service-interface Endpoints'],
    ['GET', '/apps', 'decisions §3'],
    ['POST', '/accounts/register', 'decisions §5'],
    ['POST', '/accounts/login', 'decisions §5'],
    ['POST', '/accounts/me/logout', 'decisions §5'],
    ['GET', '/accounts/me', 'decisions §5'],
    ['GET', '/accounts/status', 'decisions §5'],
    ['POST', '/accounts/me/update-password', 'decisions §5'],
    ['POST', '/accounts/request-password-reset', 'decisions §5'],
    ['POST', '/accounts/reset-password', 'decisions §5'],
    ['POST', `/accounts/${id}/tokens`, 'decisions §6'],
    ['GET', `/accounts/${id}/tokens?app=x`, 'decisions §6'],
    ['DELETE', `/accounts/${id}/tokens/${id}`, 'decisions §6'],
    ['DELETE', `/accounts/${id}/tokens?app=x`, 'decisions §6'],
    ...DRIVER_OPERATIONS.map((op): ['POST', string, string] => ['POST', `/accounts/db/${op}`, 'original-clients §A']),
    ['POST', '/sys/script_runner', 'original-clients §B'],
    ['GET', '/routes/some/path', 'original-clients §C'],
    ['POST', '/routes/some/path', 'original-clients §C'],
    ['GET', '/views/c_open', 'original-clients §D'],
    ['POST', '/developer/environment/export', 'original-clients §E'],
    ['POST', '/developer/environment/import', 'original-clients §E'],
    ['PATCH', `/c_conversations/${id}`, 'original-clients §F'],
    ['PUT', `/c_conversations/${id}`, 'original-clients §F'],
    ['PATCH', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['PUT', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['POST', `/c_conversations/${id}/c_participants`, 'original-clients §F'],
    ['DELETE', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['DELETE', `/c_conversations/${id}`, 'original-clients §F'],
    ['GET', `/c_conversations/${id}/c_title`, 'original-clients §A/§F: a property path of a record'],
    ['GET', `/accounts/${id}/name/first`, 'original-clients §A/§F: a property path of a record'],
  ];

  it('every route the spec names is registered (never notFound.route)', async () => {
    const anonymous = new TestClient(h);
    for (const [method, path, source] of AUDIT) {
      const res = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      // The unrouted answer (http/faults-plugin.ts); script routes answer notFound.route themselves
      // when no script handles the path (original-clients.md §C), with their own reason.
      const { errCode, reason } = res.json() as { errCode?: string; reason?: string };
      const unrouted = errCode === 'service.notFound.route' && String(reason).startsWith('No route for ');
      expect(unrouted, `${method} ${path} (${source}): ${res.body}`).toBe(false);
      expect(res.statusCode, `${method} ${path} (${source})`).not.toBe(501);
    }
  });

  it('anything else unknown stays notFound.route; a path under an unknown collection names it', async () => {
    expect((await admin.request('PATCH', '/c_conversations')).json().errCode).toBe('service.notFound.route');
    const res = await admin.get('/no/such/route/here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      errCode: 'service.notFound.object',
      reason: 'There is no collection named no.',
    });
  });
});
