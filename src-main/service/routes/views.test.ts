/** Views (docs/views.md): records at /views for administrators, run by GET /views/<name>. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import type { App } from '../apps/apps.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { fillTemplate, parseTemplate } from '../views/template.js';

let h: Harness;
let admin: TestClient;
let app: App;
let aliceId: string;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  app = h.svc.apps.byKey(h.consoleAppKey)!;
  aliceId = await createUser(admin, 'alice@example.test');
  for (const [title, status] of [
    ['Alpha', 'open'],
    ['Bravo', 'closed'],
    ['Charlie', 'open'],
    ['Delta', 'open'],
  ]) {
    expect((await admin.post('/c_conversations', { c_title: title, c_status: status })).statusCode).toBe(200);
  }
});
afterEach(async () => h.close());

const openByStatus = {
  name: 'convs_by_status',
  label: 'Conversations by status',
  sourceObject: 'c_conversation',
  principal: ADMIN_EMAIL,
  active: true,
  acl: [{ type: 'account', target: '*' }],
  limit: { settable: true, defaultValue: 2, min: 1, max: 3 },
  paths: { settable: true, defaultValue: ['c_title', 'c_status'], limitTo: ['c_title', 'c_status'] },
  query: [
    { name: 'where', value: '{"c_status": "{{status}}"}' },
    { name: 'sort', value: '{"c_title": 1}' },
  ],
};

async function createView(body: Record<string, unknown> = openByStatus) {
  const res = await admin.post('/views', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

const titles = (res: { json(): { data: { c_title: string }[] } }) => res.json().data.map((r) => r.c_title);

describe('running a view', () => {
  it('answers a token holding only view.execute.<name> with the view rows, and nothing else', async () => {
    await createView();
    const token = new BearerClient(
      h,
      await mint(admin, aliceId, { app: app.key, scope: ['view.execute.convs_by_status'] }),
    );
    const res = await token.get('/views/convs_by_status?status=open');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ object: 'list', hasMore: true });
    expect(titles(res)).toEqual(['Alpha', 'Charlie']);
    // paths limited to limitTo: no other properties come back
    expect(Object.keys(res.json().data[0]).sort()).toEqual(['_id', 'c_status', 'c_title', 'object']);
    // the same token reads nothing directly
    const direct = await token.get('/c_conversations');
    expect(direct.json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    expect((await token.get('/accounts')).json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    // nor may it list or read the view records themselves
    expect((await token.request('GET', '/views')).json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
  });

  it('accepts view.execute.<_id> for a run by name, and refuses a chain naming another view', async () => {
    const id = await createView();
    const byId = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: [`view.execute.${id}`] }));
    expect(titles(await byId.get('/views/convs_by_status?status=closed'))).toEqual(['Bravo']);
    expect(titles(await byId.get(`/views/${id}?status=closed`))).toEqual(['Bravo']);
    const other = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['view.execute.other'] }));
    expect((await other.get('/views/convs_by_status?status=open')).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
  });

  it('runs as the caller when the view names no principal (the caller sees only what it may read)', async () => {
    await createView({ ...openByStatus, principal: null });
    const token = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['view.execute'] }));
    const res = await token.get('/views/convs_by_status?status=open');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]); // alice owns no conversations
  });

  it('clamps limit and skip to the configured range and ignores them when not settable', async () => {
    await createView({ ...openByStatus, skip: { settable: true, max: 1 } });
    expect(titles(await admin.get('/views/convs_by_status?status=open&limit=50'))).toEqual([
      'Alpha',
      'Charlie',
      'Delta',
    ]);
    expect(titles(await admin.get('/views/convs_by_status?status=open&limit=0'))).toEqual(['Alpha']);
    expect(titles(await admin.get('/views/convs_by_status?status=open&limit=3&skip=7'))).toEqual(['Charlie', 'Delta']);
    expect((await admin.get('/views/convs_by_status?status=open&limit=abc')).json()).toMatchObject({
      errCode: 'service.invalidArgument.query',
    });
    await createView({ ...openByStatus, name: 'fixed', limit: { defaultValue: 1 } });
    expect(titles(await admin.get('/views/fixed?status=open&limit=3'))).toEqual(['Alpha']);
  });

  it('fills variables from the arguments; a missing one is invalidArgument', async () => {
    await createView();
    expect((await admin.get('/views/convs_by_status')).json()).toMatchObject({
      errCode: 'service.invalidArgument.viewVariable',
      path: 'status',
    });
    // a quoted variable is a value: it cannot add operators around itself
    const res = await admin.get(`/views/convs_by_status?status=${encodeURIComponent('{"$ne":"x"}')}`);
    expect(res.json()).toMatchObject({ object: 'list', data: [] });
    // a bare one takes JSON where the view's author put it, up to a whole where
    await createView({
      ...openByStatus,
      name: 'any_where',
      query: [
        { name: 'where', value: '{{where}}' },
        { name: 'sort', value: '{"c_title": 1}' },
      ],
    });
    const where = encodeURIComponent('{"c_title":{"$in":["Bravo","Delta"]}}');
    expect(titles(await admin.get(`/views/any_where?where=${where}`))).toEqual(['Bravo', 'Delta']);
  });

  it('takes a sort that is a bare property name, fixed or from a variable, as the list argument does', async () => {
    const bare = (name: string, sort: string) =>
      createView({
        ...openByStatus,
        name,
        query: [
          { name: 'where', value: '{"c_status": "open"}' },
          { name: 'sort', value: sort },
        ],
      });
    await bare('by_title', '"c_title"');
    expect(titles(await admin.get('/views/by_title'))).toEqual(['Alpha', 'Charlie']);
    await bare('by_chosen', '"{{s}}"');
    expect(titles(await admin.get('/views/by_chosen?s=c_title'))).toEqual(['Alpha', 'Charlie']);
    expect((await admin.get('/views/by_chosen?s=c_nothing')).json()).toMatchObject({ object: 'fault' });
  });

  it('streams NDJSON when asked', async () => {
    await createView();
    const res = await admin.get('/views/convs_by_status?status=open&limit=3', {
      accept: 'application/x-ndjson',
    });
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { c_title: string });
    expect(lines.map((l) => l.c_title)).toEqual(['Alpha', 'Charlie', 'Delta']);
  });

  it('refuses an inactive view and one whose acl leaves the caller out with accessDenied.view', async () => {
    const id = await createView();
    const token = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['view.*'] }));
    expect((await admin.patch(`/views/${id}`, { active: false })).statusCode).toBe(200);
    expect((await token.get('/views/convs_by_status?status=open')).json()).toMatchObject({
      errCode: 'service.accessDenied.view',
    });
    expect(
      (await admin.patch(`/views/${id}`, { active: true, acl: [{ type: 'role', target: 'provider' }] })).statusCode,
    ).toBe(200);
    expect((await token.get('/views/convs_by_status?status=open')).json()).toMatchObject({
      errCode: 'service.accessDenied.view',
    });
    // an administrator is never left out; a holder of the role is let in
    expect(titles(await admin.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    expect((await admin.patch(`/accounts/${aliceId}`, { roles: ['000000000000000000000005'] })).statusCode).toBe(200);
    expect(titles(await token.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    // an empty acl: administrators only
    expect((await admin.patch(`/views/${id}`, { acl: [] })).statusCode).toBe(200);
    expect((await token.get('/views/convs_by_status?status=open')).json()).toMatchObject({
      errCode: 'service.accessDenied.view',
    });
  });

  it('objectAcl gives the account the view runs as access to the instances it reads, only through the view', async () => {
    const id = await createView({ ...openByStatus, principal: null });
    const token = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['view.execute'] }));
    expect((await token.get('/views/convs_by_status?status=open')).json().data).toEqual([]);
    // an entry for a role alice does not hold changes nothing
    expect((await admin.patch(`/views/${id}`, { objectAcl: [{ type: 'role', target: 'provider' }] })).statusCode).toBe(
      200,
    );
    expect((await token.get('/views/convs_by_status?status=open')).json().data).toEqual([]);
    // one naming her (by email) lets her read through the view
    const patched = await admin.patch(`/views/${id}`, {
      objectAcl: [{ type: 'account', target: 'alice@example.test', allow: 3 }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(titles(await token.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    // a level below read (public) does not make the records readable
    expect(
      (await admin.patch(`/views/${id}`, { objectAcl: [{ type: 'account', target: '*', allow: 1 }] })).statusCode,
    ).toBe(200);
    expect((await token.get('/views/convs_by_status?status=open')).json().data).toEqual([]);
    // and it never reaches the object routes: her session still reads nothing there
    expect((await admin.patch(`/views/${id}`, { objectAcl: [{ type: 'account', target: '*' }] })).statusCode).toBe(200);
    expect(titles(await token.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    const alice = new TestClient(h);
    await alice.login('alice@example.test', USER_PASSWORD);
    expect((await alice.get('/c_conversations')).json().data).toEqual([]);
  });

  it('matches objectAcl against the view principal when it has one', async () => {
    await createUser(admin, 'bob@example.test');
    const id = await createView({ ...openByStatus, principal: 'bob@example.test' });
    const token = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['view.execute'] }));
    expect((await token.get('/views/convs_by_status?status=open')).json().data).toEqual([]);
    expect(
      (await admin.patch(`/views/${id}`, { objectAcl: [{ type: 'account', target: 'alice@example.test' }] }))
        .statusCode,
    ).toBe(200);
    expect((await token.get('/views/convs_by_status?status=open')).json().data).toEqual([]); // runs as bob
    expect(
      (await admin.patch(`/views/${id}`, { objectAcl: [{ type: 'account', target: 'bob@example.test' }] })).statusCode,
    ).toBe(200);
    expect(titles(await token.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
  });

  it('answers notFound.view for an unknown view', async () => {
    expect((await admin.get('/views/nothing')).json()).toMatchObject({ errCode: 'service.notFound.view' });
  });
});

describe('administering views', () => {
  it('validates the query on save with the query parser, naming the spot', async () => {
    const bad = await admin.post('/views', {
      ...openByStatus,
      query: [{ name: 'where', value: '{"c_nope": 1}' }],
    });
    expect(bad.json()).toMatchObject({ errCode: 'service.validation.view', path: 'query[0].value' });
    expect(bad.json().reason).toContain('c_nope');
    // A variable stands for a value, never for a property: the property under it must exist too.
    for (const where of ['{"c_nope": "{{v}}"}', '{"$or": [{"c_title": "{{t}}"}, {"c_nope": {"$gt": {{n}}}}]}']) {
      const underVariable = await admin.post('/views', { ...openByStatus, query: [{ name: 'where', value: where }] });
      expect(underVariable.json(), where).toMatchObject({ errCode: 'service.validation.view', path: 'query[0].value' });
      expect(underVariable.json().reason).toContain('c_nope');
    }
    const notJson = await admin.post('/views', { ...openByStatus, query: [{ name: 'where', value: '{"c_title": ' }] });
    expect(notJson.json()).toMatchObject({ errCode: 'service.validation.view', path: 'query[0].value' });
    expect((await admin.post('/views', { ...openByStatus, sourceObject: 'c_nothing' })).json()).toMatchObject({
      errCode: 'service.validation.view',
      path: 'sourceObject',
    });
    expect(
      (await admin.post('/views', { ...openByStatus, query: [{ name: 'group', value: '{}' }] })).json(),
    ).toMatchObject({ errCode: 'service.validation.view', reason: expect.stringMatching(/must contain an _id/) });
    expect(
      (await admin.post('/views', { ...openByStatus, limit: { settable: true, min: 5, max: 2 } })).json(),
    ).toMatchObject({ errCode: 'service.validation.view', path: 'limit' });
    expect(
      (await admin.post('/views', { ...openByStatus, acl: [{ type: 'role', target: 'nobody' }] })).json(),
    ).toMatchObject({ errCode: 'service.validation.view', path: 'acl[0].target' });
    // a PATCH is checked as the record it leaves
    const id = await createView();
    expect(
      (await admin.patch(`/views/${id}`, { query: [{ name: 'sort', value: '{"c_title": 2}' }] })).json(),
    ).toMatchObject({ errCode: 'service.validation.view' });
  });

  it('lets only org administrators create views', async () => {
    const alice = new TestClient(h);
    await alice.login('alice@example.test', USER_PASSWORD);
    expect((await alice.post('/views', openByStatus)).json()).toMatchObject({ object: 'fault', status: 403 });
  });

  it('compiles a view once per version: runs hit the cache, an edit invalidates it', async () => {
    const id = await createView();
    const before = h.svc.views.compiles;
    expect(titles(await admin.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    expect(h.svc.views.compiles).toBe(before + 1);
    for (const status of ['open', 'closed', 'open']) await admin.get(`/views/convs_by_status?status=${status}`);
    await admin.get(`/views/${id}?status=open`);
    expect(h.svc.views.compiles).toBe(before + 1); // variables filled per run, never recompiled
    // an edit in the same millisecond still makes a new version
    expect((await admin.patch(`/views/${id}`, { limit: { settable: true, defaultValue: 1, max: 3 } })).statusCode).toBe(
      200,
    );
    expect(titles(await admin.get('/views/convs_by_status?status=open'))).toEqual(['Alpha']);
    expect(h.svc.views.compiles).toBe(before + 2);
    await admin.get('/views/convs_by_status?status=open');
    expect(h.svc.views.compiles).toBe(before + 2);
    // a change of the source definition is a new version too
    expect(
      (await admin.post('/schemas/c_conversation/properties', { name: 'c_extra', type: 'String' })).statusCode,
    ).toBe(200);
    await admin.get('/views/convs_by_status?status=open');
    expect(h.svc.views.compiles).toBe(before + 3);
  });

  it('refuses an objectAcl naming nobody or an unknown level on save', async () => {
    expect(
      (await admin.post('/views', { ...openByStatus, objectAcl: [{ type: 'role', target: 'nope' }] })).json(),
    ).toMatchObject({ errCode: 'service.validation.view', path: 'objectAcl[0].target' });
    expect(
      (await admin.post('/views', { ...openByStatus, objectAcl: [{ type: 'account', target: '*', allow: 9 }] })).json(),
    ).toMatchObject({ errCode: 'service.validation.view', path: 'objectAcl[0].allow' });
  });

  it('refuses map components on save with unsupportedOperation.viewComponent, and pipeline beside where', async () => {
    const map = await admin.post('/views', {
      ...openByStatus,
      query: [...openByStatus.query, { name: 'map', value: '{"c_title": 1}' }],
    });
    expect(map.json()).toMatchObject({ errCode: 'service.unsupportedOperation.viewComponent', path: 'query[2].name' });
    const beside = await admin.post('/views', {
      ...openByStatus,
      query: [...openByStatus.query, { name: 'pipeline', value: '[{"$count": "n"}]' }],
    });
    expect(beside.json()).toMatchObject({
      errCode: 'service.validation.view',
      reason: expect.stringMatching(/stands alone/),
    });
  });

  it('runs group and pipeline components (issue 42), with variables, as the list envelope or NDJSON', async () => {
    await createView({
      ...openByStatus,
      name: 'convs_per_status',
      paths: {},
      query: [
        { name: 'where', value: '{"c_title": {"$gte": "{{from}}"}}' },
        { name: 'group', value: '{"_id": "c_status", "n": {"$sum": 1}}' },
        { name: 'sort', value: '{"n": -1}' },
      ],
    });
    const grouped = await admin.get('/views/convs_per_status?from=B');
    expect(grouped.json()).toEqual({
      object: 'list',
      data: [
        { _id: 'open', n: 2, object: 'c_conversation' },
        { _id: 'closed', n: 1, object: 'c_conversation' },
      ],
      hasMore: false,
    });
    await createView({
      ...openByStatus,
      name: 'convs_count',
      paths: {},
      query: [{ name: 'pipeline', value: '[{"$match": {"c_status": "{{status}}"}}, {"$count": "n"}]' }],
    });
    const counted = await admin.get('/views/convs_count?status=open', { accept: 'application/x-ndjson' });
    expect(counted.body).toBe('{"n":3,"object":"c_conversation"}\n');
    // A pipeline's faults are the save's: an unknown stage never saves.
    const bad = await admin.post('/views', {
      ...openByStatus,
      name: 'convs_bad',
      query: [{ name: 'pipeline', value: '[{"$frob": 1}]' }],
    });
    expect(bad.json()).toMatchObject({ errCode: 'service.validation.view', reason: expect.stringMatching(/\$frob/) });
  });

  it('recompiles a view after it changes (the cache follows the record version)', async () => {
    const id = await createView();
    expect(titles(await admin.get('/views/convs_by_status?status=open'))).toEqual(['Alpha', 'Charlie']);
    h.clock.advance(1000);
    expect(
      (await admin.patch(`/views/${id}`, { query: [{ name: 'sort', value: '{"c_title": -1}' }] })).statusCode,
    ).toBe(200);
    expect(titles(await admin.get('/views/convs_by_status?status=open'))).toEqual(['Delta', 'Charlie']);
  });
});

describe('view templates', () => {
  it('fills bare, quoted and interpolated variables without re-parsing the text', () => {
    const t = parseTemplate('{"a": {{n}}, "b": "{{s}}", "c": {"$regex": "/^{{p}}/i"}, "d": "{{x}} y"}', 'where');
    expect(t.variables).toEqual(['n', 's', 'p', 'x']);
    expect(fillTemplate(t, { n: '3', s: 'open', p: 'ab', x: '"q"' })).toEqual({
      a: 3,
      b: 'open',
      c: { $regex: '/^ab/i' },
      d: '"q" y',
    });
    expect(fillTemplate(t, { n: '[1]', s: '{"$ne":1}', p: '', x: '' })).toMatchObject({ a: [1], b: '{"$ne":1}' });
    expect(() => fillTemplate(t, { n: '3' })).toThrow(/needs the argument s/);
  });
});
