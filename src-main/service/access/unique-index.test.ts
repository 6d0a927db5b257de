/**
 * Issue #13 item 7, unique indexes: what a collision tells a caller who cannot read the record it
 * collides with. The decision (docs/SECURITY.md, "What unique indexes reveal"): a unique value is
 * refused whoever holds it — refusing is what a unique index is for, so whether the value is taken
 * is revealed to whoever may create or update such records — but nothing more: the fault is the
 * same whether or not the caller can read the holder, and names neither its id nor anything of it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await createUser(admin, 'alice@example.test');
  await createUser(admin, 'bob@example.test');
  const org = h.svc.orgs.byCode('demo')!;
  h.svc.defs.save(org.id, {
    name: 'c_badge',
    collection: 'c_badges',
    label: 'Badge',
    custom: true,
    properties: [
      { name: 'c_code', type: 'String', indexed: true, unique: true, custom: true },
      { name: 'c_secret', type: 'String', custom: true },
    ],
    // Only the owner reads a badge; any account may create one.
    defaultAcl: [{ type: 'owner', allow: 6 }],
    createAcl: [{ type: 'account', target: '*', allow: 1 }],
  } as ObjectDef);
});
afterEach(async () => h.close());

async function session(email: string) {
  const client = new TestClient(h);
  await client.login(email, USER_PASSWORD);
  return client;
}

describe('unique values and records the caller cannot read', () => {
  it('refuses the value with the same fault as for a readable holder, and names nothing of the holder', async () => {
    const alice = await session('alice@example.test');
    const bob = await session('bob@example.test');
    const held = await alice.post('/c_badges', { c_code: 'B-17', c_secret: 'alice private note' });
    expect(held.statusCode).toBe(200);
    const holderId = held.json()._id as string;
    expect((await bob.get(`/c_badges/${holderId}`)).statusCode).toBe(404);

    const unreadable = await bob.post('/c_badges', { c_code: 'B-17' });
    const readable = await alice.post('/c_badges', { c_code: 'B-17' });
    expect(unreadable.statusCode).toBe(409);
    expect(unreadable.json()).toEqual(readable.json());
    expect(unreadable.json()).toMatchObject({ errCode: 'service.exists.property', path: 'c_code' });
    expect(unreadable.body).not.toContain(holderId);
    expect(unreadable.body).not.toContain('alice');
    // Updating into a taken value answers the same.
    const own = await bob.post('/c_badges', { c_code: 'B-18' });
    const moved = await bob.patch(`/c_badges/${own.json()._id as string}`, { c_code: 'B-17' });
    expect(moved.json()).toEqual(readable.json());
  });
});
