import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('login', () => {
  it('starts a session: HttpOnly SameSite=Strict cookie scoped to the org, CSRF token, the account', async () => {
    const c = new TestClient(h);
    const res = await c.post('/accounts/login', { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'account', email: ADMIN_EMAIL, state: 'verified' });
    expect(res.body).not.toContain('scrypt');
    const sid = res.cookies.find((x) => x.name === 'service.sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/demo' });
    expect(res.headers['service-csrf-token']).toMatch(/^[\w-]{20,}$/);
    const status = await c.get('/accounts/status');
    expect(status.json()).toMatchObject({
      object: 'result',
      data: { loggedin: true, account: { email: ADMIN_EMAIL } },
    });
  });

  it('gives the same fault for a wrong password and an unknown email', async () => {
    const c = new TestClient(h);
    const wrong = await c.post('/accounts/login', { email: ADMIN_EMAIL, password: 'wrong password' });
    const unknown = await c.post('/accounts/login', { email: 'nobody@example.test', password: 'wrong password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
  });

  it('needs a session app key', async () => {
    const none = await new TestClient(h, '').post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(none.json()).toMatchObject({ errCode: 'service.notFound.app' });
    const bogus = await new TestClient(h, 'x'.repeat(22)).post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    expect(bogus.statusCode).toBe(404);
    expect(bogus.json()).toMatchObject({ errCode: 'service.notFound.app' });
  });

  it('locks the account after lockAttempts failures, and unlocks after lockDuration', async () => {
    const c = new TestClient(h);
    for (let i = 0; i < 5; i++) await c.post('/accounts/login', { email: ADMIN_EMAIL, password: 'nope nope' });
    const locked = await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({
      errCode: 'service.accessDenied.invalidCredentials',
      faults: [{ errCode: 'service.accessDenied.accountLocked' }],
    });
    h.clock.advance(15 * 60_000 - 1);
    expect((await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).statusCode).toBe(403);
    h.clock.advance(1);
    expect((await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe('the session', () => {
  it('expires after authDuration of inactivity, sliding with each request', async () => {
    const c = new TestClient(h);
    await c.login();
    h.clock.advance(900_000); // exactly authDuration: still alive
    expect((await c.get('/accounts/me')).statusCode).toBe(200);
    h.clock.advance(900_000); // slid from the last request
    expect((await c.get('/accounts/me')).statusCode).toBe(200);
    h.clock.advance(900_001);
    const res = await c.get('/accounts/me');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.sessionExpired' });
  });

  it('ends when the account logs in elsewhere', async () => {
    const first = new TestClient(h);
    await first.login();
    await new TestClient(h).login();
    const res = await first.get('/accounts/me');
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.loggedInElsewhere' });
  });

  it('requires the CSRF token on mutations', async () => {
    const c = new TestClient(h);
    await c.login();
    const token = c.csrf;
    c.csrf = 'wrong-token';
    const res = await c.post('/accounts/me/logout');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.csrfTokenMismatch' });
    c.csrf = token;
    expect((await c.post('/accounts/me/logout')).json()).toEqual({ object: 'result', data: true });
    const after = await c.get('/accounts/me');
    expect(after.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });

  it('answers requests without a session with notLoggedIn', async () => {
    const res = await new TestClient(h).get('/accounts');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });
});
