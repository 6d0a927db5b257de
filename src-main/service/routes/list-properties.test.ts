/** `paths[]` projections (one record, /accounts/me, lists) and list properties inside records and pages. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { patientFileWithConnections } from '../testing/records-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

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
    await patientFileWithConnections(admin, [3, 4, 5]);
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
    const fileId = await patientFileWithConnections(admin, [3]);
    const res = await admin.get(`/c_patientfiles/${fileId}?connections.limit=5000`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'connections.limit' });
    const where = await admin.get(`/c_patientfiles/${fileId}?connections.where=${encodeURIComponent('{"nope":1}')}`);
    expect(where.statusCode).toBe(400);
    expect(String(where.json().path)).toMatch(/^connections\.where/);
  });
});
