/**
 * Issue #13 item 3: revoking a share removes access. A grantee at share level may pass access on
 * (to itself or others); when the share it came from is deleted, what it passed on goes too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let aliceId: string;
let bobId: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test');
  bobId = await createUser(admin, 'bob@example.test');
});
afterEach(async () => {
  await h.close();
});

async function session(email: string) {
  const client = new TestClient(h);
  await client.login(email, USER_PASSWORD);
  return client;
}

const share = (client: TestClient, fileId: string, target: string, access: number) =>
  client.post('/connections', {
    context: { _id: fileId, object: 'c_patientfile' },
    target: { _id: target, object: 'account' },
    access,
  });

describe('revoking a share', () => {
  it("takes back the grantee's own connection and what it passed on, also in a ring of grantees", async () => {
    const fileId = (await admin.post('/c_patientfiles', { c_name: 'F', c_mrn: 'M-1' })).json()._id as string;
    const original = await share(admin, fileId, aliceId, 4);
    expect(original.statusCode, original.body).toBe(200);
    const alice = await session('alice@example.test');
    const bob = await session('bob@example.test');
    expect((await share(alice, fileId, aliceId, 4)).statusCode).toBe(200); // alice grants herself again
    expect((await share(alice, fileId, bobId, 4)).statusCode).toBe(200);
    expect((await share(bob, fileId, aliceId, 4)).statusCode).toBe(200); // and bob back to alice: a ring
    expect((await bob.get(`/c_patientfiles/${fileId}`)).statusCode).toBe(200);

    expect((await admin.delete(`/connections/${original.json()._id}`)).statusCode).toBe(200);
    expect((await alice.get(`/c_patientfiles/${fileId}`)).statusCode).toBe(404);
    expect((await bob.get(`/c_patientfiles/${fileId}`)).statusCode).toBe(404);
    expect((await admin.get(`/c_patientfiles/${fileId}`)).json().connections.data).toHaveLength(0);
  });

  it("lets whoever may share the record delete a grantee's connection to it", async () => {
    const fileId = (await admin.post('/c_patientfiles', { c_name: 'G', c_mrn: 'M-2' })).json()._id as string;
    await share(admin, fileId, aliceId, 4);
    const alice = await session('alice@example.test');
    const onward = await share(alice, fileId, bobId, 3);
    expect(onward.statusCode).toBe(200);
    const third = await share(admin, fileId, bobId, 4);
    const bob = await session('bob@example.test');
    // bob holds share level through the admin's connection, so he may revoke alice's grant to him
    expect((await bob.delete(`/connections/${onward.json()._id}`)).statusCode).toBe(200);
    expect(third.statusCode).toBe(200);
  });

  it('never lets a grantee grant more than it was given', async () => {
    const fileId = (await admin.post('/c_patientfiles', { c_name: 'H', c_mrn: 'M-3' })).json()._id as string;
    await share(admin, fileId, aliceId, 4);
    const alice = await session('alice@example.test');
    expect((await share(alice, fileId, aliceId, 5)).statusCode).toBe(403);
    expect((await share(alice, fileId, bobId, 5)).statusCode).toBe(403);
  });
});
