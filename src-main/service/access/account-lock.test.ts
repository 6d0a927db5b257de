/**
 * Issue #13 item 2: locking an account takes effect now. An administrator's `locked: true` (or a
 * lock-out) ends the account's sessions and refuses its tokens until it is unlocked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let userId: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  userId = await createUser(admin, 'locked.user@example.test');
});
afterEach(async () => {
  await h.close();
});

describe('locking an account', () => {
  it('refuses a permanent token of a locked account for reads and writes, and accepts it again once unlocked', async () => {
    const token = new BearerClient(
      h,
      await mint(admin, userId, { app: h.consoleAppKey, scope: ['*'], permanent: true }),
    );
    expect((await token.get('/accounts/me')).statusCode).toBe(200);

    expect((await admin.patch(`/accounts/${userId}`, { locked: true })).statusCode).toBe(200);
    const read = await token.get('/accounts/me');
    expect(read.statusCode).toBe(403);
    expect(read.json().errCode).toBe('service.accessDenied.accountLocked');
    const write = await token.patch(`/accounts/${userId}`, { name: { first: 'Changed' } });
    expect(write.statusCode).toBe(403);

    expect((await admin.post(`/accounts/${userId}/unlock`)).statusCode).toBe(200);
    expect((await token.get('/accounts/me')).statusCode).toBe(200);
  });

  it("ends the account's sessions: they stay ended after an unlock", async () => {
    const user = new TestClient(h);
    await user.login('locked.user@example.test', USER_PASSWORD);
    expect((await user.get('/accounts/me')).statusCode).toBe(200);

    await admin.patch(`/accounts/${userId}`, { locked: true });
    const refused = await user.get('/accounts/me');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errCode).toBe('service.accessDenied.accountLocked');

    await admin.post(`/accounts/${userId}/unlock`);
    expect((await user.get('/accounts/me')).statusCode).not.toBe(200);
  });

  it('a lock-out ends the sessions too', async () => {
    const user = new TestClient(h);
    await user.login('locked.user@example.test', USER_PASSWORD);
    const stranger = new TestClient(h);
    for (let i = 0; i < 5; i++)
      await stranger.post('/accounts/login', { email: 'locked.user@example.test', password: `x${i}` });
    expect((await user.get('/accounts/me')).statusCode).not.toBe(200);
  });
});
