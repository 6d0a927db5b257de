/**
 * References and aggregation through REST (issue 42): `expand[]`, `paths[]` into references and
 * `include[]` on lists, single reads and list properties, read as the caller; `pipeline` and
 * `group` on lists, over what the caller may read only. Expansion of a page costs one statement
 * per referenced object, counted on better-sqlite3's Statement methods.
 */
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let user: TestClient;
const ids: Record<string, string> = {};

const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));

async function ok(res: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Record<string, unknown> & { data: Record<string, unknown>[] };
}

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const schema = (name: string, properties: unknown[]) => ok(admin.post('/schemas', { name, label: name, properties }));
  await schema('c_kid', [
    { name: 'c_string', type: 'String', indexed: true },
    { name: 'c_number', type: 'Number', indexed: true },
  ]);
  await schema('c_dad', [
    { name: 'c_kid', type: 'Reference', refObject: 'c_kid', indexed: true },
    { name: 'c_name', type: 'String', indexed: true },
  ]);
  await schema('c_gramp', [{ name: 'c_dad', type: 'Reference', refObject: 'c_dad' }]);
  for (const [key, s, n] of [
    ['k1', 'apple', 1],
    ['k2', 'apple', 2],
    ['k3', 'pear', 5],
  ] as const) {
    ids[key] = (await ok(admin.post('/c_kids', { c_string: s, c_number: n })))._id as string;
  }
  for (const [key, kid, name] of [
    ['d1', 'k1', 'one'],
    ['d2', 'k2', 'two'],
    ['d3', 'k3', 'three'],
  ] as const) {
    ids[key] = (await ok(admin.post('/c_dads', { c_kid: ids[kid], c_name: name })))._id as string;
  }
  ids.g1 = (await ok(admin.post('/c_gramps', { c_dad: ids.d1 })))._id as string;
  ids.user = await createUser(admin, 'reader@example.test');
  user = new TestClient(h);
  await user.login('reader@example.test', USER_PASSWORD);
}, 60_000);
afterAll(async () => h.close());

describe('expand[] and paths[] into references', () => {
  it('expands a reference in a list page with the referenced record, as the caller reads it', async () => {
    const page = await ok(admin.get(`/c_dads?expand[]=c_kid&sort=c_name`));
    const one = page.data.find((d) => d.c_name === 'one')!;
    expect(one.c_kid).toMatchObject({ _id: ids.k1, object: 'c_kid', c_string: 'apple', c_number: 1, access: 8 });
  });

  it('expands inside an expansion on a single read (c_dad.c_kid), and the creator (owner)', async () => {
    const g = await ok(admin.get(`/c_gramps/${ids.g1}?expand[]=c_dad.c_kid&expand[]=owner`));
    expect(g.c_dad).toMatchObject({ _id: ids.d1, c_name: 'one', c_kid: { _id: ids.k1, c_string: 'apple' } });
    expect(g.owner).toMatchObject({ object: 'account', email: 'admin@example.test' });
  });

  it('projects the referenced record to the paths named through it', async () => {
    const page = await ok(admin.get(`/c_dads?paths[]=c_name&paths[]=c_kid.c_string&where=${q({ c_name: 'two' })}`));
    expect(page.data).toEqual([
      { _id: ids.d2, object: 'c_dad', c_name: 'two', c_kid: { _id: ids.k2, object: 'c_kid', c_string: 'apple' } },
    ]);
  });

  it('leaves a reference the caller may not read bare', async () => {
    // The reader owns this dad, not the kid it points to (custom objects: owner-only by default).
    const mine = (await ok(user.post('/c_dads', { c_kid: ids.k3, c_name: 'mine' })))._id as string;
    const page = await ok(user.get(`/c_dads?expand[]=c_kid`));
    expect(page.data.map((d) => d._id)).toEqual([mine]);
    expect(page.data[0]!.c_kid).toEqual({ _id: ids.k3, object: 'c_kid', path: `/c_kids/${ids.k3}` });
  });

  it('expands on /accounts/me too, and /schemas refuses the record arguments by name', async () => {
    const me = await ok(admin.get('/accounts/me?paths[]=email&expand[]=owner'));
    expect(Object.keys(me).sort()).toEqual(['_id', 'email', 'object']);
    const schemas = await admin.get('/schemas?expand[]=owner');
    expect(schemas.json()).toMatchObject({ errCode: 'service.unsupportedOperation', path: 'expand' });
    expect((await admin.get(`/schemas?pipeline=${q([])}`)).json()).toMatchObject({ path: 'pipeline' });
  });

  it('refuses to expand what is not a reference, by name', async () => {
    const res = await admin.get('/c_dads?expand[]=c_name');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.illegalExpansion', path: 'expand[0]' });
  });

  it('costs one statement per referenced object for a whole page, not one per record', async () => {
    const statements = await counted(h.svc.db, () => admin.get('/c_gramps?expand[]=c_dad.c_kid'));
    // The page, the dads, the kids.
    expect(statements).toHaveLength(3);
    const dads = await counted(h.svc.db, () => admin.get('/c_dads?expand[]=c_kid'));
    expect(dads).toHaveLength(2);
  });
});

describe('pipeline and group on lists', () => {
  it('groups with accumulators and answers the list envelope', async () => {
    const page = await ok(
      admin.get(
        `/c_kids?pipeline=${q([{ $group: { _id: 'c_string', n: { $count: '_id' }, total: { $sum: 'c_number' } } }, { $sort: { total: -1 } }])}`,
      ),
    );
    expect(page).toEqual({
      object: 'list',
      data: [
        { _id: 'pear', n: 1, total: 5, object: 'c_kid' },
        { _id: 'apple', n: 2, total: 3, object: 'c_kid' },
      ],
      hasMore: false,
    });
  });

  it('takes the group argument with where and a sort by the named grouping, and limit', async () => {
    const page = await ok(
      admin.get(
        `/c_kids?group=${q({ _id: 'c_string', n: { $sum: 1 } })}&where=${q({ c_number: { $gt: 1 } })}&sort=${q({ n: -1 })}&limit=1`,
      ),
    );
    expect(page).toEqual({ object: 'list', data: [{ _id: 'apple', n: 1, object: 'c_kid' }], hasMore: true });
  });

  it('sees only what the caller may read', async () => {
    const page = await ok(user.get(`/c_dads?pipeline=${q([{ $count: 'n' }])}`));
    expect(page.data).toEqual([{ n: 1, object: 'c_dad' }]);
    const all = await ok(admin.get(`/c_dads?pipeline=${q([{ $count: 'n' }])}`));
    expect(all.data).toEqual([{ n: 4, object: 'c_dad' }]);
  });

  it('answers each caller from their own reading, whoever asked the same text first (kept parses and SQL)', async () => {
    // The administrator's answer is parsed and compiled once and kept (query/parsed-lists.ts,
    // query/compiled-queries.ts); the same text from a reader with an ACL, and from a token with
    // fewer readable properties, must not be answered from it.
    const count = `/c_dads?pipeline=${q([{ $count: 'n' }])}`;
    for (let i = 0; i < 2; i++) expect((await ok(admin.get(count))).data).toEqual([{ n: 4, object: 'c_dad' }]);
    expect((await ok(user.get(count))).data).toEqual([{ n: 1, object: 'c_dad' }]);
    const byNumber = `/c_kids?pipeline=${q([{ $group: { _id: 'c_number', n: { $sum: 1 } } }])}`;
    const whole = `/c_kids?pipeline=${q([{ $match: { c_string: 'pear' } }])}`;
    for (let i = 0; i < 2; i++) {
      await ok(admin.get(byNumber));
      expect((await ok(admin.get(whole))).data[0]).toMatchObject({ c_string: 'pear', c_number: 5 });
    }
    const adminId = (await ok(admin.get('/accounts/me')))._id as string;
    const limited = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: ['object.read.c_kid.*.c_string'] }),
    );
    expect((await limited.get(byNumber)).json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    const pear = (await ok(limited.get(whole))).data[0]!;
    expect(pear.c_string).toBe('pear');
    expect(pear).not.toHaveProperty('c_number');
  });

  it('refuses pipeline with where, nativePipeline and unknown stages by name', async () => {
    const bad = async (query: string) => {
      const res = await admin.get(`/c_kids?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      return res.json() as Record<string, unknown>;
    };
    expect((await bad(`pipeline=${q([])}&where=${q({})}`)).reason).toMatch(/incompatible with pipeline/);
    expect(await bad(`nativePipeline=${q([{ $sample: {} }])}`)).toMatchObject({ path: 'nativePipeline' });
    expect(await bad(`pipeline=${q([{ $lookup: {} }])}`)).toMatchObject({ errCode: 'service.unsupportedOperation' });
    expect(await bad(`pipeline=${q([{ $match: { c_missing: 1 } }])}`)).toMatchObject({
      path: 'pipeline[0].$match.c_missing',
    });
  });

  it('refuses properties a token may not read, and scopes that name single instances', async () => {
    const adminId = (await ok(admin.get('/accounts/me')))._id as string;
    const limited = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: ['object.read.c_kid.*.c_string'] }),
    );
    const res = await limited.get(`/c_kids?pipeline=${q([{ $group: { _id: 'c_number', n: { $sum: 1 } } }])}`);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.scope', path: 'pipeline[0].$group._id' });
    await ok(limited.get(`/c_kids?pipeline=${q([{ $group: { _id: 'c_string', n: { $sum: 1 } } }])}`));
    const one = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: [`object.read.c_kid.${ids.k1}`] }),
    );
    expect((await one.get(`/c_kids?pipeline=${q([{ $count: 'n' }])}`)).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
  });
});

describe('views', () => {
  it("expand references as the caller reads them, not as the view's principal", async () => {
    await ok(
      admin.post('/views', {
        name: 'dads',
        label: 'Dads',
        sourceObject: 'c_dad',
        principal: 'admin@example.test',
        active: true,
        acl: [{ type: 'account', target: '*' }],
        paths: { settable: true },
        query: [{ name: 'where', value: '{"c_name": "one"}' }],
      }),
    );
    const asAdmin = await ok(admin.get('/views/dads?expand[]=c_kid'));
    expect(asAdmin.data[0]!.c_kid).toMatchObject({ _id: ids.k1, c_string: 'apple' });
    // The reader sees the dad through the view, but may not read the kid: it stays bare.
    const asReader = await ok(user.get('/views/dads?expand[]=c_kid'));
    expect(asReader.data[0]!.c_kid).toEqual({ _id: ids.k1, object: 'c_kid', path: `/c_kids/${ids.k1}` });
    const projected = await ok(admin.get('/views/dads?paths[]=c_kid.c_number'));
    expect(projected.data[0]).toEqual({
      _id: ids.d1,
      object: 'c_dad',
      c_kid: { _id: ids.k1, object: 'c_kid', c_number: 1 },
    });
  });
});

describe('list properties (connections) take the same arguments, prefixed', () => {
  it('groups, expands and is included on request', async () => {
    const file = (await ok(admin.post('/c_patientfiles', { c_name: 'F', c_mrn: 'mrn-42' })))._id as string;
    for (const access of [2, 4, 4]) {
      await ok(
        admin.post('/connections', { context: { _id: file, object: 'c_patientfile' }, access, target: ids.user }),
      );
    }
    const grouped = await ok(
      admin.get(`/c_patientfiles/${file}?connections.pipeline=${q([{ $group: { _id: 'access', n: { $sum: 1 } } }])}`),
    );
    expect(grouped.connections).toEqual({
      object: 'list',
      data: [
        { _id: 2, n: 1, object: 'connection' },
        { _id: 4, n: 2, object: 'connection' },
      ],
      hasMore: false,
    });
    const expanded = await ok(admin.get(`/c_patientfiles/${file}?connections.expand[]=target&connections.limit=1`));
    const first = (expanded.connections as { data: Record<string, unknown>[] }).data[0]!;
    expect(first.target).toMatchObject({ _id: ids.user, email: 'reader@example.test', object: 'account' });
    // The list property by its own path takes the list arguments unprefixed (docs/compatibility.md#not-yet).
    const byPath = await ok(
      admin.get(`/c_patientfiles/${file}/connections?pipeline=${q([{ $match: { access: 4 } }, { $count: 'n' }])}`),
    );
    expect(byPath).toEqual({ object: 'list', data: [{ n: 2, object: 'connection' }], hasMore: false });
    const plainPath = await ok(admin.get(`/c_patientfiles/${file}/connections?limit=1&sort=access`));
    expect(plainPath.data.map((c) => c.access)).toEqual([2]);
    expect(plainPath.hasMore).toBe(true);
    // A collection's list carries list properties only when asked: include[] asks.
    const plain = await ok(admin.get(`/c_patientfiles?where=${q({ c_mrn: 'mrn-42' })}`));
    expect(plain.data[0]).not.toHaveProperty('connections');
    const included = await ok(admin.get(`/c_patientfiles?where=${q({ c_mrn: 'mrn-42' })}&include[]=connections`));
    expect((included.data[0]!.connections as { data: unknown[] }).data).toHaveLength(3);
    expect(included.data[0]).toHaveProperty('c_name', 'F');
  });
});

/** Statements one (warm) request runs. */
async function counted(db: Database.Database, request: () => Promise<{ statusCode: number; body: string }>) {
  await request();
  const ran: string[] = [];
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  for (const method of ['get', 'all', 'run', 'iterate']) {
    const original = proto[method] as (this: Database.Statement, ...args: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: Database.Statement, ...args: unknown[]) {
      if (this.source !== 'PRAGMA data_version') ran.push(this.source.slice(0, 60));
      return original.apply(this, args);
    };
  }
  try {
    const res = await request();
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    for (const [method, original] of originals) proto[method] = original;
  }
  return ran;
}
