/** `GET /schemas` is a list like any other: the list arguments over the presented definitions. */
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
