/**
 * Issue #17 speed: a view run is the direct list request in another form — the same SQL, the same
 * presentation from stored text — and reads its view record once while nothing is written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';
import { compileListQuery } from '../query/compile.js';
import { compileRowFilters } from '../query/row-filters.js';
import { NO_KEY_COLUMNS } from '../query/expressions.js';
import type { ObjectStore } from '../objects/store.js';

let h: Harness;
let admin: TestClient;

/** Every `store.list` call's object name, SQL text and parameters, in order. */
let lists: { object: string; sql: string; params: unknown[] }[];

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await createUser(admin, 'alice@example.test');
  for (const [title, status] of [
    ['Alpha', 'open'],
    ['Bravo', 'closed'],
    ['Charlie', 'open'],
    ['Delta', 'open'],
  ]) {
    expect((await admin.post('/c_conversations', { c_title: title, c_status: status })).statusCode).toBe(200);
  }
  lists = [];
  const store = h.svc.store;
  const list = store.list.bind(store);
  store.list = ((orgId, def, query, filters = [], page) => {
    // Every table named 'source': the SQL of two requests compares whatever tables they read.
    const source = { table: 'source', columns: NO_KEY_COLUMNS };
    const extraWhere = compileRowFilters(filters, source, () => source);
    const compiled = compileListQuery(query, { table: 'source', extraWhere, ...page });
    lists.push({ object: def.name, sql: compiled.sql, params: compiled.params });
    return list(orgId, def, query, filters, page);
  }) as ObjectStore['list'];
});
afterEach(async () => h.close());

const byStatus = (extra: Record<string, unknown> = {}) => ({
  name: 'by_status',
  sourceObject: 'c_conversation',
  principal: ADMIN_EMAIL,
  acl: [{ type: 'account', target: '*' }],
  limit: { settable: true, defaultValue: 100, min: 1, max: 1000 },
  query: [
    { name: 'where', value: '{"c_status": "{{status}}"}' },
    { name: 'sort', value: '{"c_title": -1}' },
  ],
  ...extra,
});
const VIEW_URL = '/views/by_status?status=open&limit=2';
const DIRECT_URL = `/c_conversations?where=${encodeURIComponent('{"c_status":"open"}')}&sort=${encodeURIComponent('{"c_title":-1}')}&limit=2`;

async function createView(body: Record<string, unknown>) {
  const res = await admin.post('/views', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

/** The SQL of the one source-object list a request ran. */
async function sqlOf(client: TestClient, url: string) {
  lists = [];
  const res = await client.get(url);
  expect(res.statusCode, res.body).toBe(200);
  const source = lists.filter((l) => l.object === 'c_conversation');
  expect(source).toHaveLength(1);
  return { sql: source[0]!.sql, params: source[0]!.params, body: res.body };
}

describe('a view run and the same query sent directly', () => {
  it('run the same SQL and answer the same bytes (a principal that administers, like the caller)', async () => {
    await createView(byStatus());
    const view = await sqlOf(admin, VIEW_URL);
    const direct = await sqlOf(admin, DIRECT_URL);
    expect(view.sql).toBe(direct.sql);
    expect(view.sql).toContain('ORDER BY');
    expect(view.params).toEqual(direct.params);
    expect(view.params).toContain('open');
    // the same presentation (records written from their stored text), byte for byte
    expect(view.body).toBe(direct.body);
    expect(JSON.parse(view.body)).toMatchObject({ object: 'list', hasMore: true });
    expect((JSON.parse(view.body) as { data: { c_title: string }[] }).data.map((r) => r.c_title)).toEqual([
      'Delta',
      'Charlie',
    ]);
  });

  it('run the same SQL, read condition included, when the view runs as a caller who is no administrator', async () => {
    await createView(byStatus({ principal: null }));
    const alice = new TestClient(h);
    await alice.login('alice@example.test', USER_PASSWORD);
    const view = await sqlOf(alice, VIEW_URL);
    const direct = await sqlOf(alice, DIRECT_URL);
    expect(view.sql).toBe(direct.sql);
    expect(view.params).toEqual(direct.params);
    // the caller's read condition is part of both (alice reads none of the admin's records)
    expect(view.sql).not.toBe((await sqlOf(admin, DIRECT_URL)).sql);
    expect(view.body).toBe(direct.body);
    expect(JSON.parse(view.body)).toMatchObject({ data: [], hasMore: false });
  });

  it('stream as NDJSON exactly the records of the direct list, one per line', async () => {
    await createView(byStatus());
    const ndjson = await admin.get(VIEW_URL, { accept: 'application/x-ndjson' });
    expect(ndjson.headers['content-type']).toContain('application/x-ndjson');
    const direct = (await admin.get(DIRECT_URL)).json() as { data: unknown[] };
    expect(ndjson.body).toBe(direct.data.map((r) => `${JSON.stringify(r)}\n`).join(''));
    // with paths the records are projected, and still one per line
    await createView(byStatus({ name: 'titles', paths: { defaultValue: ['c_title'] } }));
    const projected = await admin.get('/views/titles?status=open&limit=2', { accept: 'application/x-ndjson' });
    expect(
      projected.body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { _id: expect.any(String), object: 'c_conversation', c_title: 'Delta' },
      { _id: expect.any(String), object: 'c_conversation', c_title: 'Charlie' },
    ]);
  });
});

describe('what a run reads besides its rows', () => {
  const viewReads = () => lists.filter((l) => l.object === 'view').length;

  it('reads the view record once while nothing is written, and again after any write', async () => {
    const id = await createView(byStatus());
    lists = [];
    for (let i = 0; i < 3; i++) expect((await admin.get(VIEW_URL)).statusCode).toBe(200);
    expect(viewReads()).toBe(1);
    expect(lists.filter((l) => l.object === 'c_conversation')).toHaveLength(3);
    // any commit empties what runs keep: an edit of the view is seen by the very next run
    expect((await admin.patch(`/views/${id}`, { active: false })).statusCode).toBe(200);
    lists = [];
    expect((await admin.get(VIEW_URL)).json()).toMatchObject({ errCode: 'service.accessDenied.view' });
    expect(viewReads()).toBe(1);
    expect((await admin.patch(`/views/${id}`, { active: true })).statusCode).toBe(200);
    expect((await admin.get(VIEW_URL)).statusCode).toBe(200);
    // a write elsewhere (a new record) also makes the next run look the view up again
    lists = [];
    expect((await admin.post('/c_conversations', { c_title: 'Echo', c_status: 'open' })).statusCode).toBe(200);
    const res = await admin.get(VIEW_URL);
    expect(viewReads()).toBe(1);
    expect((res.json() as { data: { c_title: string }[] }).data.map((r) => r.c_title)).toEqual(['Echo', 'Delta']);
  });

  it('follows a change of the principal: one that no longer exists refuses the run at once', async () => {
    const bob = await createUser(admin, 'bob@example.test');
    await createView(byStatus({ principal: 'bob@example.test' }));
    expect((await admin.get(VIEW_URL)).json()).toMatchObject({ object: 'list', data: [] }); // bob reads nothing
    expect((await admin.delete(`/accounts/${bob}`)).statusCode).toBe(200);
    expect((await admin.get(VIEW_URL)).json()).toMatchObject({ errCode: 'service.accessDenied.view' });
  });

  it('compiles again when the org forbids negations: a fixed where with $ne no longer runs', async () => {
    await createView(byStatus({ query: [{ name: 'where', value: '{"c_status": {"$ne": "closed"}}' }] }));
    const compiles = h.svc.views.compiles;
    expect((await admin.get('/views/by_status?limit=2')).json()).toMatchObject({ object: 'list' });
    expect((await admin.get('/views/by_status?limit=2')).json()).toMatchObject({ object: 'list' });
    expect(h.svc.views.compiles).toBe(compiles + 1);
    h.svc.orgs.updateSettings(h.svc.orgs.byCode(h.org)!, { disableNegation: true });
    // refused like the same where sent directly (it is not the cached compile of before)
    expect((await admin.get('/views/by_status?limit=2')).json()).toMatchObject({
      errCode: 'service.invalidArgument.view',
    });
    const direct = await admin.get(`/c_conversations?where=${encodeURIComponent('{"c_status":{"$ne":"closed"}}')}`);
    expect(direct.json()).toMatchObject({ object: 'fault' });
  });
});
