/** Several orgs per data folder: creating one, and keeping tokens, sessions and apps within their org. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

const clinic = { code: 'clinic', name: 'Clinic', adminEmail: 'boss@clinic.test', adminPassword: 'a clinic password' };

describe('POST /developer/orgs', () => {
  it('creates an org an administrator can log in to, listed with the others', async () => {
    const res = await admin.post('/developer/orgs', clinic);
    expect(res.json()).toMatchObject({ object: 'org', code: 'clinic', name: 'Clinic' });
    const key = res.json().consoleAppKey as string;
    const boss = new TestClient({ ...h, org: 'clinic' }, key);
    await boss.login(clinic.adminEmail, clinic.adminPassword);
    expect((await boss.get('/accounts/me')).json()).toMatchObject({ email: clinic.adminEmail });
    expect((await admin.get('/developer/orgs')).json().data.map((o: { code: string }) => o.code)).toEqual([
      'demo',
      'clinic',
    ]);
    expect((await admin.post('/developer/orgs', clinic)).json()).toMatchObject({ errCode: 'service.exists.org' });
    expect((await admin.post('/developer/orgs', { ...clinic, code: 'Bad Code' })).json()).toMatchObject({
      errCode: 'service.invalidArgument.org',
    });
  });

  it('is for administrators only', async () => {
    await createUser(admin, 'user@example.test');
    const user = new TestClient(h);
    await user.login('user@example.test', USER_PASSWORD);
    expect((await user.post('/developer/orgs', clinic)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
  });

  it('is for the operator only: an administrator of another org creates no org and sees only its own', async () => {
    const key = (await admin.post('/developer/orgs', clinic)).json().consoleAppKey as string;
    const boss = new TestClient({ ...h, org: 'clinic' }, key);
    await boss.login(clinic.adminEmail, clinic.adminPassword);
    const refused = await boss.post('/developer/orgs', { ...clinic, code: 'mine', adminEmail: ADMIN_EMAIL });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ errCode: 'service.accessDenied.operator' });
    expect(h.svc.orgs.byCode('mine')).toBeUndefined();
    // Not by a token either, however wide.
    const bossId = (await boss.get('/accounts/me')).json()._id as string;
    const wide = new BearerClient(h, await mint(boss, bossId, { app: key, scope: ['*'] }), {}, 'clinic');
    expect((await wide.post('/developer/orgs', { ...clinic, code: 'mine' })).json()).toMatchObject({
      errCode: 'service.accessDenied.operator',
    });
    expect((await boss.get('/developer/orgs')).json().data.map((o: { code: string }) => o.code)).toEqual(['clinic']);
    // The console asks whether to offer "New org".
    expect((await boss.get('/accounts/status')).json().data).toMatchObject({ loggedin: true, operator: false });
    expect((await admin.get('/accounts/status')).json().data).toMatchObject({ loggedin: true, operator: true });
  });

  it('keeps tokens, sessions and apps within their org', async () => {
    const key = (await admin.post('/developer/orgs', { ...clinic, adminEmail: ADMIN_EMAIL })).json()
      .consoleAppKey as string;
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const token = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] });
    // the token works in its org…
    expect((await new BearerClient(h, token).get('/accounts/me')).json()).toMatchObject({ email: ADMIN_EMAIL });
    // …and is refused by the other, though an account with the same email exists there
    const elsewhere = await new BearerClient(h, token, {}, 'clinic').get('/accounts/me');
    expect(elsewhere.json()).toMatchObject({ object: 'fault', status: 403 });
    // demo's app key is not an app of clinic
    const crossApp = new TestClient({ ...h, org: 'clinic' }, h.consoleAppKey);
    expect(
      (await crossApp.post('/accounts/login', { email: ADMIN_EMAIL, password: 'correct horse battery' })).json(),
    ).toMatchObject({
      object: 'fault',
    });
    // demo's session cookie means nothing at clinic, even with clinic's app key
    const jar = (admin as unknown as { cookies: Map<string, string> }).cookies;
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    expect(cookie).toContain('service.sid');
    const res = await h.server.inject({
      method: 'GET',
      url: '/clinic/v2/accounts/me',
      headers: { host: '127.0.0.1:7788', 'service-client-key': key, cookie },
    });
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });
});
