import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

const people = [
  ['Ada', 'Smith'],
  ['bob', 'stone'],
  ['Cy', 'Young'],
  ['Di', 'Smith'],
  ['Ed', 'Abbott'],
];

async function seedAccounts() {
  for (const [first, last] of people) {
    const res = await admin.post('/accounts', {
      email: `${first}.${last}@example.test`.toLowerCase(),
      password: 'a long password',
      name: { first, last },
    });
    expect(res.statusCode).toBe(200);
  }
}

describe('records', () => {
  it('creates, reads, patches, partially puts and deletes a custom object', async () => {
    const created = await admin.post('/c_conversations', { c_title: 'Hello', c_status: 'open' });
    expect(created.statusCode).toBe(200);
    const conv = created.json();
    expect(conv).toMatchObject({
      object: 'c_conversation',
      access: 8,
      c_title: 'Hello',
      updater: { object: 'account' },
    });
    expect(conv._id).toMatch(/^[0-9a-f]{24}$/);
    expect(conv.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    expect((await admin.get(`/c_conversations/${conv._id}`)).json()).toMatchObject({ c_title: 'Hello' });
    h.clock.advance(1000);
    const patched = (await admin.patch(`/c_conversations/${conv._id}`, { c_status: 'closed' })).json();
    expect(patched).toMatchObject({ c_title: 'Hello', c_status: 'closed', created: conv.created });
    expect(patched.updated).not.toBe(conv.created);
    // PUT sets only the given properties (docs/compatibility.md#patch-and-put); it no longer replaces the record.
    const replaced = (await admin.put(`/c_conversations/${conv._id}`, { c_title: 'Only' })).json();
    expect(replaced.c_status).toBe('closed');
    expect(replaced.c_title).toBe('Only');
    expect((await admin.delete(`/c_conversations/${conv._id}`)).json()).toEqual({ object: 'result', data: true });
    const gone = await admin.get(`/c_conversations/${conv._id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ errCode: 'service.notFound.instance' });
  });

  it('refuses invalid input with one child fault per bad property and writes nothing', async () => {
    const res = await admin.post('/c_conversations', { c_title: 42, c_status: 'maybe', c_nope: 1, _id: 'x' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ object: 'fault', code: 'kValidationError', name: 'validation' });
    expect(body.faults.map((f: { path: string }) => f.path).sort()).toEqual(['_id', 'c_nope', 'c_status', 'c_title']);
    const list = (await admin.get('/c_conversations')).json();
    expect(list.data).toHaveLength(0);
  });

  it('refuses a duplicate unique value with kExists naming the property', async () => {
    await admin.post('/c_patientfiles', { c_mrn: 'MRN-1' });
    const dup = await admin.post('/c_patientfiles', { c_mrn: 'MRN-1' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'kExists', path: 'c_mrn' });
  });

  it('answers a bad id and an unknown collection with faults', async () => {
    expect((await admin.get('/accounts/not-an-id')).json()).toMatchObject({
      errCode: 'service.invalidArgument.invalidObjectId',
    });
    expect((await admin.get('/c_nothing')).json()).toMatchObject({ errCode: 'service.notFound.object' });
  });
});

describe('lists', () => {
  it('applies the seed rules: regex prefix, two-key sort, hasMore', async () => {
    await seedAccounts();
    const where = { 'name.last': { $regex: '/^s/i' } };
    const res = await admin.get(`/accounts?${listQuery({ where, sort: { 'name.last': 1, 'name.first': 1 } })}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.object).toBe('list');
    expect(body.hasMore).toBe(false);
    expect(body.data.map((a: { name: { first: string } }) => a.name.first)).toEqual(['Ada', 'Di', 'bob']);
    const page = (await admin.get(`/accounts?${listQuery({ limit: 2 })}`)).json();
    expect(page.data).toHaveLength(2);
    expect(page.hasMore).toBe(true);
  });

  it('pages by keyset on _id and by skip, and projects paths', async () => {
    await seedAccounts();
    const all = (await admin.get(`/accounts?${listQuery({ sort: { _id: 1 } })}`))
      .json()
      .data.map((a: { _id: string }) => a._id);
    expect(all).toHaveLength(6);
    const seen: string[] = [];
    let last: string | undefined;
    for (;;) {
      const where = last ? { _id: { $gt: last } } : undefined;
      const page = (await admin.get(`/accounts?${listQuery({ where, sort: { _id: 1 }, limit: 4 })}`)).json();
      seen.push(...page.data.map((a: { _id: string }) => a._id));
      last = seen[seen.length - 1];
      if (!page.hasMore) break;
    }
    expect(seen).toEqual(all);
    const skipped = (await admin.get(`/accounts?${listQuery({ sort: { _id: 1 }, skip: 4 })}`)).json();
    expect(skipped.data.map((a: { _id: string }) => a._id)).toEqual(all.slice(4));
    const projected = (await admin.get(`/accounts?${listQuery({ paths: ['name.last'], limit: 1 })}`)).json().data[0];
    expect(Object.keys(projected).sort()).toEqual(['_id', 'name', 'object']);
  });

  it('refuses unindexed properties, unknown operators and a limit over 1000', async () => {
    const unindexed = await admin.get(`/accounts?${listQuery({ where: { shared: true } })}`);
    expect(unindexed.statusCode).toBe(400);
    expect(unindexed.json()).toMatchObject({ errCode: 'service.invalidArgument.query' });
    expect(unindexed.json().reason).toContain('shared');
    const op = await admin.get(`/accounts?${listQuery({ where: { email: { $where: 'x' } } })}`);
    expect(op.json().reason).toContain('$where');
    const exact = await admin.get(`/accounts?${listQuery({ where: { roles: ['a', 'b'] } })}`);
    expect(exact.json()).toMatchObject({ errCode: 'service.unsupportedOperation.exactMatching' });
    const big = await admin.get(`/accounts?${listQuery({ limit: 1001 })}`);
    expect(big.json()).toMatchObject({ errCode: 'service.invalidArgument.query' });
  });

  it('returns list properties as paged list envelopes with prefixed arguments', async () => {
    const file = (await admin.post('/c_patientfiles', { c_name: 'File', c_mrn: 'M-9' })).json();
    for (let i = 1; i <= 3; i++) {
      const res = await admin.post('/connections', {
        context: { _id: file._id, object: 'c_patientfile' },
        access: i + 2,
      });
      expect(res.statusCode).toBe(200);
    }
    await admin.post('/connections', { context: { _id: '0'.repeat(24), object: 'c_patientfile' }, access: 3 });
    const q = listQuery({ sort: { access: -1 }, limit: 2 }, 'connections.');
    const got = (await admin.get(`/c_patientfiles/${file._id}?${q}`)).json();
    expect(got.connections.object).toBe('list');
    expect(got.connections.hasMore).toBe(true);
    expect(got.connections.data.map((c: { access: number }) => c.access)).toEqual([5, 4]);
  });
});

describe('schemas', () => {
  it('lists definitions with fully qualified property paths and indexed flags', async () => {
    const res = await admin.get('/schemas');
    const account = res.json().data.find((s: { name: string }) => s.name === 'account');
    const paths = Object.fromEntries(account.paths.map((p: { path: string }) => [p.path, p]));
    expect(paths['name.last']).toMatchObject({ type: 'String', indexed: true });
    expect(paths['c_enrollments.c_study']).toMatchObject({ array: true });
    expect(paths['c_study_groups']).toMatchObject({ array: true, indexed: true });
    expect(
      (await admin.get('/schemas/c_patientfile')).json().properties.map((p: { name: string }) => p.name),
    ).toContain('connections');
  });

  it('creates custom objects and properties (c_ prefix enforced) that can be queried at once', async () => {
    const bad = await admin.post('/schemas', { name: 'widget', properties: [] });
    expect(bad.json()).toMatchObject({ code: 'kValidationError', path: 'name' });
    const made = await admin.post('/schemas', {
      name: 'c_widget',
      properties: [{ name: 'c_size', type: 'Integer', indexed: true }],
    });
    expect(made.statusCode).toBe(200);
    await admin.post('/c_widgets', { c_size: 3 });
    await admin.post('/c_widgets', { c_size: 9 });
    const big = (await admin.get(`/c_widgets?${listQuery({ where: { c_size: { $gt: 5 } } })}`)).json();
    expect(big.data.map((w: { c_size: number }) => w.c_size)).toEqual([9]);
    const prop = await admin.post('/schemas/c_widget/properties', { name: 'c_color', type: 'String', indexed: true });
    expect(prop.statusCode).toBe(200);
    await admin.post('/c_widgets', { c_size: 1, c_color: 'red' });
    const red = (await admin.get(`/c_widgets?${listQuery({ where: { c_color: 'red' } })}`)).json();
    expect(red.data).toHaveLength(1);
  });

  it('alters a definition: label and index flags of custom properties', async () => {
    await admin.post('/schemas', { name: 'c_gadget', properties: [{ name: 'c_code', type: 'String' }] });
    const before = await admin.get(`/c_gadgets?${listQuery({ where: { c_code: 'x' } })}`);
    expect(before.json()).toMatchObject({ errCode: 'service.invalidArgument.query' });
    const altered = await admin.patch('/schemas/c_gadget', {
      label: 'Gadget',
      properties: { c_code: { unique: true } },
    });
    expect(altered.json()).toMatchObject({ label: 'Gadget' });
    await admin.post('/c_gadgets', { c_code: 'x' });
    expect((await admin.get(`/c_gadgets?${listQuery({ where: { c_code: 'x' } })}`)).json().data).toHaveLength(1);
    expect((await admin.post('/c_gadgets', { c_code: 'x' })).statusCode).toBe(409);
    const builtin = await admin.patch('/schemas/account', { properties: { email: { indexed: false } } });
    expect(builtin.statusCode).toBe(403);
    expect((await admin.delete('/schemas/c_gadget')).json()).toEqual({ object: 'result', data: true });
    expect((await admin.get('/c_gadgets')).json()).toMatchObject({ errCode: 'service.notFound.object' });
  });
});

describe('roles', () => {
  it('refuse invalid scope chains with invalidArgument.authScope', async () => {
    const bad = await admin.post('/roles', {
      name: 'Readers',
      scopes: ['object.read.account.*.name', 'object.read.account.name'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scope[1]' });
    const good = await admin.post('/roles', { name: 'Readers', scopes: ['object.read.account.*.name'] });
    expect(good.statusCode).toBe(200);
    const patched = await admin.patch(`/roles/${good.json()._id}`, { scopes: ['deployment.create'] });
    expect(patched.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope' });
  });

  it('answer paths with a trailing slash like the path without it', async () => {
    expect((await admin.get('/accounts/me/')).json()).toMatchObject({ object: 'account' });
  });
});
