/** Application settings refused rather than accepted or answered 500: a null body to /rsa, an expiry that is no calendar day. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { currentAppKey } from '../auth/tokens/token-keys.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('POST /apps/:key/rsa with a null body', () => {
  it('is refused and leaves the key pair alone', async () => {
    const app = h.svc.apps.byKey(h.consoleAppKey)!;
    const before = currentAppKey(h.svc.apps, app.id)!.kid;
    const res = await admin.request('POST', `/apps/${app.key}/rsa`, 'null', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ object: 'fault', code: 'kValidationError' });
    expect(currentAppKey(h.svc.apps, app.id)!.kid).toBe(before);
  });
});

describe('app expires must be a real calendar day', () => {
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
