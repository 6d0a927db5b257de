/** An account email is unique whatever its letter case (docs/orgs-and-apps.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('email changes', () => {
  it('answers 409 exists.email for an email that differs from another account’s only by case', async () => {
    await createUser(admin, 'bob@example.test');
    const aliceId = await createUser(admin, 'alice@example.test');
    const res = await admin.patch(`/accounts/${aliceId}`, { email: 'Bob@Example.TEST' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errCode: 'service.exists.email', path: 'email' });
    expect((await admin.get(`/accounts/${aliceId}`)).json()).toMatchObject({ email: 'alice@example.test' });
    // Changing one's own email in letter case only is not a collision.
    expect((await admin.patch(`/accounts/${aliceId}`, { email: 'Alice@example.test' })).statusCode).toBe(200);
  });
});
