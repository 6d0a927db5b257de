import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, mint } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let id: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const made = await admin.post('/schemas', {
    name: 'c_note',
    properties: [
      { name: 'c_title', type: 'String', required: true },
      { name: 'c_tags', type: 'String', array: true },
      { name: 'c_count', type: 'Integer' },
      {
        name: 'c_meta',
        type: 'Document',
        properties: [
          { name: 'c_a', type: 'String' },
          { name: 'c_b', type: 'String' },
        ],
      },
    ],
  });
  expect(made.statusCode).toBe(200);
  const note = await admin.post('/c_notes', { c_title: 'T', c_tags: ['a', 'b'], c_count: 1, c_meta: { c_a: 'x' } });
  expect(note.statusCode).toBe(200);
  id = note.json()._id as string;
});
afterEach(async () => h.close());

describe('PATCH operations (docs/compatibility.md#patch-and-put)', () => {
  it('applies set, push, remove, pull and unset in order', async () => {
    const res = await admin.patch(`/c_notes/${id}`, [
      { op: 'set', path: 'c_title', value: 'New' },
      { op: 'push', path: 'c_tags', value: ['c', 'd'] },
      { op: 'remove', path: 'c_tags', value: 'a' },
      { op: 'pull', path: 'c_tags', value: 'b' },
      { op: 'set', path: 'c_meta/c_b', value: 'y' },
      { op: 'unset', value: { c_count: 1 } },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ c_title: 'New', c_tags: ['c', 'd'], c_meta: { c_a: 'x', c_b: 'y' } });
    expect(res.json().c_count).toBeUndefined();
    expect((await admin.get(`/c_notes/${id}`)).json()).toMatchObject({ c_tags: ['c', 'd'] });
  });

  it('still accepts a plain object as a merge', async () => {
    const res = await admin.patch(`/c_notes/${id}`, { c_count: 5 });
    expect(res.json()).toMatchObject({ c_title: 'T', c_count: 5, c_tags: ['a', 'b'] });
  });

  it('refuses an unknown operation with unsupportedOperation.patchOp and writes nothing', async () => {
    const res = await admin.patch(`/c_notes/${id}`, [
      { op: 'set', path: 'c_title', value: 'Lost' },
      { op: 'rename', path: 'c_title' },
    ]);
    expect(res.json()).toMatchObject({ errCode: 'service.unsupportedOperation.patchOp' });
    expect((await admin.get(`/c_notes/${id}`)).json().c_title).toBe('T');
  });

  it('validates the result like any write: types, unknown and read-only properties, required', async () => {
    const wrongType = await admin.patch(`/c_notes/${id}`, [{ op: 'push', path: 'c_tags', value: { no: 1 } }]);
    expect(wrongType.statusCode).toBe(400);
    const unknown = await admin.patch(`/c_notes/${id}`, [{ op: 'set', path: 'c_nope', value: 1 }]);
    expect(unknown.json()).toMatchObject({ code: 'kValidationError' });
    const owner = await admin.patch(`/c_notes/${id}`, [{ op: 'set', path: 'owner', value: 'x' }]);
    expect(owner.json()).toMatchObject({ code: 'kValidationError' });
    const required = await admin.patch(`/c_notes/${id}`, [{ op: 'unset', path: 'c_title' }]);
    expect(required.json()).toMatchObject({ code: 'kValidationError' });
    expect((await admin.get(`/c_notes/${id}`)).json()).toMatchObject({ c_title: 'T', c_tags: ['a', 'b'] });
  });

  it('PUT sets only the given properties; arrays inside are replaced', async () => {
    const res = await admin.put(`/c_notes/${id}`, { c_tags: ['z'] });
    expect(res.json()).toMatchObject({ c_title: 'T', c_count: 1, c_tags: ['z'] });
  });

  it('sub-path routes: PATCH prefixes, PUT sets, POST pushes, DELETE removes', async () => {
    const patched = await admin.patch(`/c_notes/${id}/c_meta`, [{ op: 'set', path: 'c_b', value: 'q' }]);
    expect(patched.json()).toMatchObject({ c_meta: { c_a: 'x', c_b: 'q' } });
    const put = await admin.request('PUT', `/c_notes/${id}/c_meta/c_a`, '"w"', {
      'content-type': 'application/json',
    });
    expect(put.json()).toMatchObject({ c_meta: { c_a: 'w', c_b: 'q' } });
    const pushed = await admin.post(`/c_notes/${id}/c_tags`, ['c']);
    expect(pushed.json()).toMatchObject({ c_tags: ['a', 'b', 'c'] });
    const deleted = await admin.delete(`/c_notes/${id}/c_meta`);
    expect(deleted.json()).toEqual({ object: 'result', data: true });
    expect((await admin.get(`/c_notes/${id}`)).json().c_meta).toBeUndefined();
  });

  it('bounds every array write', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `t${i}`);
    const res = await admin.patch(`/c_notes/${id}`, [{ op: 'push', path: 'c_tags', value: many }]);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect((await admin.get(`/c_notes/${id}`)).json().c_tags).toEqual(['a', 'b']);
  });

  it('checks property scopes on the top-level property of each path', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const scope = ['object.update.c_note.*.c_count', 'object.read.c_note'];
    const bearer = new BearerClient(h, await mint(admin, adminId, { app: h.consoleAppKey, scope }));
    const ok = await bearer.patch(`/c_notes/${id}`, [{ op: 'set', path: 'c_count', value: 3 }]);
    expect(ok.statusCode, ok.body).toBe(200);
    const refused = await bearer.patch(`/c_notes/${id}`, [{ op: 'push', path: 'c_tags', value: 'x' }]);
    expect(refused.json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    // PUT with a property-limited scope: no longer needs the whole object.
    const put = await bearer.put(`/c_notes/${id}`, { c_count: 4 });
    expect(put.statusCode, put.body).toBe(200);
    expect((await admin.get(`/c_notes/${id}`)).json()).toMatchObject({ c_count: 4, c_tags: ['a', 'b'] });
  });

  it('loses no write when 20 pushes arrive at once', async () => {
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`);
    const answers = await Promise.all(
      values.map((v) => admin.patch(`/c_notes/${id}`, [{ op: 'push', path: 'c_tags', value: v }])),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const tags = (await admin.get(`/c_notes/${id}`)).json().c_tags as string[];
    expect(tags).toHaveLength(22);
    expect(new Set(tags)).toEqual(new Set(['a', 'b', ...values]));
  });
});
