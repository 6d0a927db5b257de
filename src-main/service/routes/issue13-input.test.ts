/** Issue #13, items 12, 14, 15: inputs that were accepted, or answered 500, and are refused now. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { currentAppKey } from '../auth/tokens/token-keys.js';

let h: Harness;
let admin: TestClient;
const T = Date.parse('2026-01-15T12:00:00.000Z') / 1000;
const YEAR = 365 * 24 * 3600;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('item 12: validAt is bounded', () => {
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

describe('item 14: POST /apps/:key/rsa with a null body', () => {
  it('is refused and leaves the key pair alone', async () => {
    const app = h.svc.apps.byKey(h.consoleAppKey)!;
    const before = currentAppKey(h.svc.apps, app.id)!.kid;
    const res = await admin.request('POST', `/apps/${app.key}/rsa`, 'null', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ object: 'fault', code: 'kValidationError' });
    expect(currentAppKey(h.svc.apps, app.id)!.kid).toBe(before);
  });
});

describe('item 15: app expires must be a real calendar day', () => {
  it('refuses 2026-02-31 and 2026-13-01, accepts 2028-02-29', async () => {
    const created = await admin.post('/apps', { label: 'Integration', kind: 'signing' });
    const key = (created.json() as { key: string }).key;
    for (const expires of ['2026-02-31', '2026-02-29T00:00:00Z', '2026-13-01', '2026-04-31T10:00:00Z']) {
      const res = await admin.patch(`/apps/${key}`, { expires });
      expect(res.statusCode, expires).toBe(400);
      expect(h.svc.apps.byKey(key)!.settings.expires).toBeNull();
    }
    const ok = await admin.patch(`/apps/${key}`, { expires: '2028-02-29' });
    expect(ok.statusCode).toBe(200);
    expect(h.svc.apps.byKey(key)!.settings.expires).toBe('2028-02-29T00:00:00.000Z');
  });
});
