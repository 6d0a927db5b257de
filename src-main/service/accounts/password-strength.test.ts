/** Issue #13, item 18: every way to set a password refuses common ones with a validation fault. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, ADMIN_PASSWORD, type Harness } from '../testing/harness.js';

let h: Harness;
afterEach(async () => h.close());

const WEAK = ['password', 'password123'];
const expectWeak = (res: { statusCode: number; json(): unknown }, label: string) => {
  expect(res.statusCode, label).toBe(400);
  expect(res.json(), label).toMatchObject({ errCode: 'service.validation.password', path: 'password' });
  expect((res.json() as { reason: string }).reason, label).toMatch(/common/);
};

describe('first-run setup', () => {
  beforeEach(async () => (h = await createHarness({ bootstrap: false })));
  it('refuses a common administrator password', async () => {
    const c = new TestClient(h, '');
    for (const password of WEAK) {
      expectWeak(await c.post('/_service/setup', { org: 'acme', email: 'boss@acme.test', password }), password);
    }
    expect(h.svc.orgs.list()).toEqual([]);
  });
});

describe('accounts of an org', () => {
  let admin: TestClient;
  beforeEach(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  });

  it('refuses common passwords on registration, admin creation and password changes', async () => {
    for (const password of WEAK) {
      expectWeak(await new TestClient(h).post('/accounts/register', { email: 'n@example.test', password }), password);
      expectWeak(await admin.post('/accounts', { email: 'm@example.test', password }), password);
      expectWeak(await admin.post('/accounts/me/update-password', { current: ADMIN_PASSWORD, password }), password);
    }
    expect(h.svc.credentials.byEmail(h.svc.orgs.byCode('demo')!.id, 'n@example.test')).toBeUndefined();
    expect(h.svc.credentials.byEmail(h.svc.orgs.byCode('demo')!.id, 'm@example.test')).toBeUndefined();
    await new TestClient(h).login(); // the admin's password is unchanged
  });
});
