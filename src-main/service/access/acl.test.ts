/**
 * The access model in detail: the SQL read condition against the per-record level (random data),
 * ACL entries and create ACLs on a definition, connections and sharing, grants, and property-level
 * scopes on reads, writes and queries.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { reference } from '../objects/stored-record.js';
import type { Org } from '../orgs/orgs.js';
import { levelsOf, readableCondition } from './acl.js';
import type { Caller } from './caller.js';
import { ACCESS, type AclEntry } from './levels.js';

let h: Harness;
let admin: TestClient;
let org: Org;
let aliceId: string;
let bobId: string;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
  aliceId = await createUser(admin, 'alice@example.test');
  bobId = await createUser(admin, 'bob@example.test');
});
afterEach(async () => h.close());

const ROLE = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function thingDef(extra: { defaultAcl?: AclEntry[]; createAcl?: AclEntry[] } = {}): ObjectDef {
  const def = {
    name: 'c_thing',
    collection: 'c_things',
    label: 'Thing',
    custom: true,
    properties: [{ name: 'c_n', type: 'Integer', indexed: true, custom: true }],
    ...extra,
  } as ObjectDef;
  h.svc.defs.save(org.id, def);
  return h.svc.defs.byName(org.id, 'c_thing')!;
}

async function session(email: string) {
  const client = new TestClient(h);
  await client.login(email, USER_PASSWORD);
  return client;
}

describe('the SQL read condition agrees with the per-record level', () => {
  it('on random ACLs, owners, connections, grants and skipAcl', () => {
    const connectionDef = h.svc.defs.byName(org.id, 'connection')!;
    const entry = fc.oneof(
      fc.record({ type: fc.constant('owner' as const), allow: fc.integer({ min: 1, max: 7 }) }),
      fc.record({
        type: fc.constant('role' as const),
        target: fc.constantFrom(ROLE, 'b'.repeat(24)),
        allow: fc.integer({ min: 1, max: 7 }),
      }),
      fc.record({
        type: fc.constant('account' as const),
        target: fc.constantFrom('*', 'c'.repeat(24)),
        allow: fc.integer({ min: 1, max: 7 }),
      }),
    );
    const record = fc.record({
      owned: fc.boolean(),
      connection: fc.option(
        fc.record({
          access: fc.integer({ min: 1, max: 8 }),
          state: fc.constantFrom(undefined, 'active', 'pending'),
          mine: fc.boolean(),
        }),
      ),
    });
    const caller = fc.record({
      roles: fc.subarray([ROLE]),
      grant: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
      skipAcl: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 3 }),
        fc.array(record, { minLength: 1, maxLength: 8 }),
        caller,
        (acl, records, who) => {
          const def = thingDef({ defaultAcl: acl });
          h.svc.store.dropCollection(org.id, def);
          h.svc.store.dropCollection(org.id, connectionDef);
          const me: Caller = {
            accountId: aliceId,
            roles: new Set(who.roles),
            orgAdmin: false,
            skipAcl: who.skipAcl,
            bypassCreateAcl: false,
            ...(who.grant !== undefined ? { grant: who.grant } : {}),
          };
          const stored = records.map((r, i) => {
            const rec = h.svc.store.insert(org.id, def, {
              c_n: i,
              owner: reference('account', r.owned ? aliceId : bobId),
            });
            if (r.connection) {
              h.svc.store.insert(org.id, connectionDef, {
                context: { _id: rec._id, object: 'c_thing', path: `/c_things/${rec._id}` },
                target: reference('account', r.connection.mine ? aliceId : bobId),
                access: r.connection.access,
                ...(r.connection.state ? { state: r.connection.state } : {}),
              });
            }
            return rec;
          });
          const levels = levelsOf(h.svc, org, me, def, stored);
          const expected = stored.filter((_, i) => (levels[i] ?? 0) >= ACCESS.read).map((r) => r._id);
          const condition = readableCondition(h.svc, org, me, def);
          const query = parseListQuery({ sort: '{"_id":1}' }, def);
          const listed = h.svc.store.list(org.id, def, query, condition ? [condition] : []).rows.map((r) => r._id);
          expect(listed).toEqual(expected);
          for (const level of levels) expect(level).toBeLessThanOrEqual(ACCESS.script);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the SQL read condition agrees with the per-record level on built-in definitions', () => {
  // The rules special to accounts (the owner is the account itself) and connections (the target
  // reads them), with random callers: the SQL filter must list exactly what the JS level allows.
  it('on accounts and connections, for random callers', () => {
    const accountDef = h.svc.defs.byName(org.id, 'account')!;
    const connectionDef = h.svc.defs.byName(org.id, 'connection')!;
    const people = () => [aliceId, bobId];
    const connection = fc.record({
      target: fc.constantFrom(0, 1),
      owner: fc.constantFrom(0, 1),
      access: fc.integer({ min: 1, max: 8 }),
      state: fc.constantFrom(undefined, 'active', 'pending'),
    });
    const caller = fc.record({
      who: fc.constantFrom(0, 1),
      roles: fc.subarray([ROLE]),
      grant: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
      skipAcl: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(connection, { maxLength: 6 }), caller, (connections, who) => {
        h.svc.store.dropCollection(org.id, connectionDef);
        for (const c of connections) {
          h.svc.store.insert(org.id, connectionDef, {
            context: { _id: people()[c.owner]!, object: 'account', path: `/accounts/${people()[c.owner]!}` },
            target: reference('account', people()[c.target]!),
            owner: reference('account', people()[c.owner]!),
            access: c.access,
            ...(c.state ? { state: c.state } : {}),
          });
        }
        const me: Caller = {
          accountId: people()[who.who]!,
          roles: new Set(who.roles),
          orgAdmin: false,
          skipAcl: who.skipAcl,
          bypassCreateAcl: false,
          ...(who.grant !== undefined ? { grant: who.grant } : {}),
        };
        const query = parseListQuery({ sort: '{"_id":1}', limit: '1000' }, accountDef);
        for (const def of [accountDef, connectionDef]) {
          const all = h.svc.store.list(org.id, def, query).rows;
          const levels = levelsOf(h.svc, org, me, def, all);
          const expected = all.filter((_, i) => (levels[i] ?? 0) >= ACCESS.read).map((r) => r._id);
          const condition = readableCondition(h.svc, org, me, def);
          const listed = h.svc.store.list(org.id, def, query, condition ? [condition] : []).rows.map((r) => r._id);
          expect(listed).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('definition ACLs', () => {
  it('grants role holders the level of a role entry, on every instance, in lists and reads', async () => {
    h.svc.store.insert(org.id, h.svc.defs.byName(org.id, 'role')!, { name: 'Viewers', scopes: [] }, { _id: ROLE });
    const def = thingDef({ defaultAcl: [{ type: 'role', target: ROLE, allow: ACCESS.read }] });
    const made = (await admin.post('/c_things', { c_n: 1 })).json();
    const alice = await session('alice@example.test');
    expect((await alice.get('/c_things')).json().data).toHaveLength(0);
    expect((await admin.patch(`/accounts/${aliceId}`, { roles: [ROLE] })).statusCode).toBe(200);
    const list = (await alice.get('/c_things')).json().data;
    expect(list.map((t: { _id: string; access: number }) => [t._id, t.access])).toEqual([[made._id, ACCESS.read]]);
    expect((await alice.patch(`/c_things/${made._id}`, { c_n: 2 })).json()).toMatchObject({ code: 'kAccessDenied' });
    expect((def as { defaultAcl?: unknown }).defaultAcl).toHaveLength(1);
  });

  it('honours createAcl: empty refuses accounts, service/skc bypasses it, a matching entry allows', async () => {
    thingDef({ createAcl: [] });
    const alice = await session('alice@example.test');
    expect((await alice.post('/c_things', { c_n: 1 })).json()).toMatchObject({ code: 'kAccessDenied' });
    const skc = new BearerClient(
      h,
      await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'], bypassCreateAcl: true }),
    );
    const made = await skc.post('/c_things', { c_n: 1 });
    expect(made.json()).toMatchObject({ access: ACCESS.delete, owner: { _id: aliceId } });
    thingDef({ createAcl: [{ type: 'account', target: aliceId, allow: 1 }] });
    expect((await alice.post('/c_things', { c_n: 2 })).statusCode).toBe(200);
  });

  it('drops malformed stored entries instead of honouring them', async () => {
    thingDef({
      defaultAcl: [{ type: 'account', target: 'everyone', allow: 8 } as never, { type: 'owner', allow: 99 } as never],
    });
    await (await session('bob@example.test')).post('/c_things', { c_n: 1 });
    expect((await (await session('alice@example.test')).get('/c_things')).json().data).toHaveLength(0);
    expect((await (await session('bob@example.test')).get('/c_things')).json().data).toHaveLength(0);
  });

  it('records the creator as owner, which callers cannot forge and PUT keeps', async () => {
    const bob = await session('bob@example.test');
    const forged = await bob.post('/c_conversations', { c_title: 'x', owner: { _id: aliceId, object: 'account' } });
    expect(forged.statusCode).toBe(400);
    const conv = (await bob.post('/c_conversations', { c_title: 'x' })).json();
    expect(conv).toMatchObject({ access: ACCESS.delete, owner: { _id: bobId, object: 'account' } });
    expect((await bob.put(`/c_conversations/${conv._id}`, { c_title: 'y' })).json()).toMatchObject({
      owner: { _id: bobId },
    });
  });
});

describe('connections and sharing', () => {
  async function file() {
    return (await admin.post('/c_patientfiles', { c_name: 'F', c_mrn: `M-${Math.random()}` })).json()._id as string;
  }
  const connect = (client: TestClient, fileId: string, target: string, access: number, extra = {}) =>
    client.post('/connections', {
      context: { _id: fileId, object: 'c_patientfile' },
      target: { _id: target, object: 'account' },
      access,
      ...extra,
    });

  it('grants nothing while pending, the level once active', async () => {
    const id = await file();
    const pending = (await connect(admin, id, aliceId, 5, { state: 'pending' })).json();
    const alice = await session('alice@example.test');
    expect((await alice.get(`/c_patientfiles/${id}`)).statusCode).toBe(404);
    await admin.patch(`/connections/${pending._id}`, { state: 'active' });
    expect((await alice.get(`/c_patientfiles/${id}`)).json()).toMatchObject({ access: 5 });
  });

  it('needs share access on the context and grants at most the sharer level', async () => {
    const id = await file();
    await connect(admin, id, aliceId, ACCESS.read);
    const alice = await session('alice@example.test');
    expect((await connect(alice, id, bobId, 3)).json()).toMatchObject({ code: 'kAccessDenied', path: 'context' });
    const other = await file();
    await connect(admin, other, aliceId, ACCESS.share);
    expect((await connect(alice, other, bobId, ACCESS.update)).json()).toMatchObject({
      code: 'kAccessDenied',
      path: 'access',
    });
    const shared = await connect(alice, other, bobId, ACCESS.read);
    expect(shared.statusCode).toBe(200);
    expect((await (await session('bob@example.test')).get(`/c_patientfiles/${other}`)).json()).toMatchObject({
      access: 3,
    });
    // The sharer cannot raise a connection it made above its own level afterwards.
    expect((await alice.patch(`/connections/${shared.json()._id}`, { access: 7 })).json()).toMatchObject({
      path: 'access',
    });
    // An unreadable or missing context is not found, whatever the caller's token says.
    const skc = new BearerClient(
      h,
      await mint(admin, bobId, { app: h.consoleAppKey, scope: ['*'], bypassCreateAcl: true }),
    );
    expect(
      (await skc.post('/connections', { context: { _id: id, object: 'c_patientfile' }, access: 3 })).statusCode,
    ).toBe(404);
    expect((await connect(admin, '0'.repeat(24), aliceId, 3)).statusCode).toBe(404);
  });

  it('shows all connections of an instance to those who may share it, only their own to others', async () => {
    const id = await file();
    await connect(admin, id, aliceId, ACCESS.read);
    await connect(admin, id, bobId, ACCESS.read);
    const alice = await session('alice@example.test');
    const seen = (await alice.get(`/c_patientfiles/${id}`)).json().connections.data;
    expect(seen.map((c: { target: { _id: string } }) => c.target._id)).toEqual([aliceId]);
    expect((await admin.get(`/c_patientfiles/${id}`)).json().connections.data).toHaveLength(2);
  });
});

describe('grants and self-protection', () => {
  it('never lets an account change its roles, state, locked or email, whatever its grant', async () => {
    const token = new BearerClient(h, await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['*'], grant: 7 }));
    const me = (await token.get(`/accounts/${aliceId}`)).json();
    expect(me.access).toBe(7);
    for (const body of [
      { roles: ['000000000000000000000004'] },
      { state: 'verified' },
      { locked: false },
      { email: 'x@y.test' },
    ]) {
      expect((await token.patch(`/accounts/${aliceId}`, body)).json()).toMatchObject({
        errCode: 'service.accessDenied.property',
        path: Object.keys(body)[0],
      });
    }
    expect((await token.delete(`/accounts/${aliceId}`)).json()).toMatchObject({ code: 'kAccessDenied' });
  });
});

describe('property-level scopes', () => {
  let token: BearerClient;
  beforeEach(async () => {
    token = new BearerClient(
      h,
      await mint(admin, aliceId, {
        app: h.consoleAppKey,
        scope: ['object.read.account.*.name.first', 'object.read.account.*.email', 'object.update.account.*.name'],
      }),
    );
  });

  it('strips unreadable properties from reads and lists, inside documents too', async () => {
    const read = (await token.get(`/accounts/${aliceId}`)).json();
    expect(read).toEqual({
      _id: aliceId,
      object: 'account',
      access: 5,
      email: 'alice@example.test',
      name: { first: 'alice' },
    });
    const list = (await token.get('/accounts')).json().data;
    expect(list).toEqual([read]);
  });

  it('refuses writes outside the scope, naming the property, and DELETE altogether', async () => {
    expect((await token.patch(`/accounts/${aliceId}`, { name: { first: 'A', last: 'B' } })).statusCode).toBe(200);
    expect((await token.patch(`/accounts/${aliceId}`, { mobile: '+15555550100' })).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
      path: 'mobile',
    });
    // PUT is a partial set (docs/compatibility.md#patch-and-put): judged property by property like PATCH.
    expect((await token.put(`/accounts/${aliceId}`, { mobile: '+15555550100' })).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
      path: 'mobile',
    });
    const partial = new BearerClient(
      h,
      await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['object.update.account.*.name.first'] }),
    );
    expect((await partial.patch(`/accounts/${aliceId}`, { name: { first: 'A' } })).json()).toMatchObject({
      path: 'name',
    });
    // The update answer is stripped to what may be read: the token above reads nothing.
    const updated = (await token.patch(`/accounts/${aliceId}`, { name: { first: 'C' } })).json();
    expect(updated).toEqual({
      _id: aliceId,
      object: 'account',
      access: 5,
      email: 'alice@example.test',
      name: { first: 'C' },
    });
  });

  it('refuses matching or sorting on properties it may not read, allows _id and readable ones', async () => {
    const byLast = await token.get(`/accounts?${listQuery({ where: { 'name.last': 'User' } })}`);
    expect(byLast.json()).toMatchObject({ errCode: 'service.accessDenied.scope', path: 'name.last' });
    const sorted = await token.get(`/accounts?${listQuery({ sort: { created: -1 } })}`);
    expect(sorted.json()).toMatchObject({ errCode: 'service.accessDenied.scope', path: 'created' });
    const ok = await token.get(
      `/accounts?${listQuery({ where: { 'name.first': 'alice', _id: { $gt: '0'.repeat(24) } } })}`,
    );
    expect(ok.json().data).toHaveLength(1);
  });

  it('lets an instance chain read one instance without listing the type', async () => {
    const one = new BearerClient(
      h,
      await mint(admin, aliceId, { app: h.consoleAppKey, scope: [`object.read.account.${aliceId}`] }),
    );
    expect((await one.get(`/accounts/${aliceId}`)).statusCode).toBe(200);
    expect((await one.get('/accounts')).json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
  });
});
