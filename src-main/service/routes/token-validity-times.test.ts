/** A token's validity times are bounded on mint (validAt), and stored times outside the date range still list. */
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

const T = Date.parse('2026-01-15T12:00:00.000Z') / 1000;
const YEAR = 365 * 24 * 3600;

describe('validAt is bounded', () => {
  it('refuses validAt more than a year ahead or outside the JS date range, and mints none', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    for (const validAt of [T + 2 * YEAR, 9_000_000_000_000, '+275760-09-13T00:00:01Z', '9999-01-01T00:00:00Z']) {
      const res = await admin.post(`/accounts/${aliceId}/tokens`, {
        app: h.consoleAppKey,
        scope: ['*'],
        validAt,
        maxUses: 1,
      });
      expect(res.statusCode, String(validAt)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'kInvalidArgument', path: 'validAt' });
    }
    expect(h.svc.db.prepare('SELECT count(*) AS n FROM tokens').get()).toEqual({ n: 0 });
    const ok = await admin.post(`/accounts/${aliceId}/tokens`, {
      app: h.consoleAppKey,
      scope: ['*'],
      validAt: T + YEAR,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('lists tokens even when a stored time lies outside the JS date range', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    const app = h.svc.apps.byKey(h.consoleAppKey)!;
    const minted = await admin.post(`/accounts/${aliceId}/tokens`, { app: app.key, scope: ['*'], permanent: true });
    expect(minted.statusCode).toBe(200);
    h.svc.db.prepare('UPDATE tokens SET expires_at = ?').run(9e18);
    const res = await admin.get(`/accounts/${aliceId}/tokens?app=${app.key}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ expires_at: null })]);
  });
});
