/** `GET /<collection>/<_id>/<path>`: one property path of a record, with the record read's rules. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let aliceId: string;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test', { name: { first: 'Alice', last: 'Liddell' } });
});
afterEach(async () => h.close());

describe('GET /<collection>/<_id>/<path>', () => {
  it('answers the value at the path as a result, through slashes or dots', async () => {
    expect((await admin.get(`/accounts/${aliceId}/name/first`)).json()).toEqual({ object: 'result', data: 'Alice' });
    expect((await admin.get(`/accounts/${aliceId}/name.last`)).json()).toEqual({ object: 'result', data: 'Liddell' });
    expect((await admin.get(`/accounts/${aliceId}/name`)).json()).toEqual({
      object: 'result',
      data: { first: 'Alice', last: 'Liddell' },
    });
    const conv = (await admin.post('/c_conversations', { c_title: 'Hello' })).json()._id as string;
    expect((await admin.get(`/c_conversations/${conv}/c_title`)).json()).toEqual({ object: 'result', data: 'Hello' });
  });

  it('answers notFound for a missing path, a missing record, and a record the caller cannot read', async () => {
    const missingPath = await admin.get(`/accounts/${aliceId}/c_nothing`);
    expect(missingPath.statusCode).toBe(404);
    expect(missingPath.json()).toMatchObject({ errCode: 'service.notFound.property' });
    const missingRecord = await admin.get(`/accounts/${'b'.repeat(24)}/email`);
    expect(missingRecord.json()).toMatchObject({ errCode: 'service.notFound.instance' });
    // Bob reads his own account, not Alice's: hers is as missing to him as a record that is not there.
    await createUser(admin, 'bob@example.test');
    const bob = new TestClient(h);
    await bob.login('bob@example.test', USER_PASSWORD);
    const hidden = await bob.get(`/accounts/${aliceId}/email`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ errCode: 'service.notFound.instance' });
  });

  it("applies a token's scopes: a property scope reads that property and nothing else", async () => {
    const token = await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['object.read.account.*.name'] });
    const alice = new BearerClient(h, token);
    expect((await alice.get(`/accounts/${aliceId}/name/first`)).json()).toEqual({ object: 'result', data: 'Alice' });
    const email = await alice.get(`/accounts/${aliceId}/email`);
    expect(email.statusCode).toBe(404);
    expect(email.json()).toMatchObject({ errCode: 'service.notFound.property' });
    const none = new BearerClient(
      h,
      await mint(admin, aliceId, { app: h.consoleAppKey, scope: ['object.read.c_conversation'] }),
    );
    expect((await none.get(`/accounts/${aliceId}/email`)).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
  });

  it('refuses a bad id or a forbidden path segment with invalidArgument, never a crash', async () => {
    expect((await admin.get('/accounts/not-an-id/email')).json()).toMatchObject({
      errCode: 'service.invalidArgument.invalidObjectId',
    });
    const proto = await admin.get(`/accounts/${aliceId}/__proto__/polluted`);
    expect(proto.statusCode).toBe(400);
    expect(proto.json()).toMatchObject({ object: 'fault', status: 400 });
  });
});
