/** An object definition's default and create ACLs: set through /schemas, checked, and enforced on records. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

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
