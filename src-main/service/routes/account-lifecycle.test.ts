import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createAccount } from '../accounts/accounts.js';
import { OutboxRepository } from '../accounts/outbox.js';
import { LocationRepository } from '../auth/sessions/location.js';
import { totpCode } from '../auth/sessions/totp.js';
import { hashSessionId } from '../auth/sessions/sessions.js';
import type { OrgSettings } from '../orgs/orgs.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const USER = 'user@example.test';
const USER_PASSWORD = 'user password 1';
const NEW_PASSWORD = 'a brand new password';
const HOUR = 60 * 60_000;

const orgOf = () => h.svc.orgs.byCode('demo')!;
const setOrg = (patch: Partial<OrgSettings>) => h.svc.orgs.updateSettings(orgOf(), patch);
const outbox = () => new OutboxRepository(h.svc.db, h.svc.cipher).list(orgOf().id, { skip: 0, limit: 100 }).data;
const tokenIn = (body: string) => /"token":"([\w-]+)"/.exec(body)![1]!;
const sidOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((x) => x.name === 'service.sid')?.value;
const credOf = (email: string) => h.svc.credentials.byEmail(orgOf().id, email)!;

async function addUser(email = USER, password = USER_PASSWORD): Promise<string> {
  const record = await createAccount(h.svc, orgOf(), { email, password, state: 'verified' });
  return record._id;
}
async function admin(): Promise<TestClient> {
  const c = new TestClient(h);
  await c.login();
  return c;
}
async function user(email = USER, password = USER_PASSWORD): Promise<TestClient> {
  const c = new TestClient(h);
  await c.login(email, password);
  return c;
}
const wrongDigits = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /accounts/verify', () => {
  async function registered(): Promise<{ c: TestClient; token: string }> {
    const c = new TestClient(h);
    await c.post('/accounts/register', { email: 'fresh@example.test', password: 'fresh password' });
    return { c, token: tokenIn(outbox()[0]!.body) };
  }

  it('verifies once; the token cannot be reused', async () => {
    const { c, token } = await registered();
    expect((await c.post('/accounts/verify', { token })).json()).toMatchObject({ state: 'verified' });
    const again = await c.post('/accounts/verify', { token });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ errCode: 'service.accessDenied.invalidToken' });
  });

  it('accepts the token through seven days and refuses it one millisecond later', async () => {
    const { c, token } = await registered();
    const second = await new TestClient(h).post('/accounts/register', {
      email: 'other@example.test',
      password: 'fresh password',
    });
    expect(second.statusCode).toBe(200);
    const token2 = tokenIn(outbox()[0]!.body);
    h.clock.advance(7 * 24 * HOUR);
    expect((await c.post('/accounts/verify', { token })).statusCode).toBe(200);
    h.clock.advance(1);
    const late = await c.post('/accounts/verify', { token: token2 });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ errCode: 'service.expired.token', code: 'kExpired' });
  });

  it('refuses an unknown token and a missing one', async () => {
    const c = new TestClient(h);
    expect((await c.post('/accounts/verify', { token: 'x'.repeat(43) })).json()).toMatchObject({
      errCode: 'service.accessDenied.invalidToken',
    });
    const missing = await c.post('/accounts/verify', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ object: 'fault', code: 'kValidationError' });
  });

  it('lets an administrator verify an account, and nobody else', async () => {
    const c = new TestClient(h);
    const res = await c.post('/accounts/register', { email: 'fresh@example.test', password: 'fresh password' });
    const id = res.json()._id as string;
    const self = await c.post(`/accounts/${id}/verify`);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
    const byAdmin = await (await admin()).post(`/accounts/${id}/verify`);
    expect(byAdmin.json()).toMatchObject({ _id: id, state: 'verified' });
  });
});

describe('POST /accounts/me/update-password', () => {
  it('checks the current password, re-hashes, ends the other sessions and keeps the caller in a new one', async () => {
    setOrg({ allowSimultaneousLogins: true });
    await addUser();
    const c = new TestClient(h);
    const oldSid = sidOf(await c.login(USER, USER_PASSWORD));
    const other = await user();
    const before = credOf(USER).password_hash;
    expect(oldSid).toBeDefined();
    const res = await c.post('/accounts/me/update-password', { current: USER_PASSWORD, password: NEW_PASSWORD });
    expect(res.json()).toEqual({ object: 'result', data: true });
    expect(sidOf(res)).toBeDefined();
    expect(sidOf(res)).not.toBe(oldSid);
    expect(credOf(USER).password_hash).not.toBe(before);
    expect(credOf(USER).password_hash).not.toContain(NEW_PASSWORD);
    expect((await c.get('/accounts/me')).statusCode).toBe(200);
    expect((await other.get('/accounts/me')).json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
    expect((await new TestClient(h).post('/accounts/login', { email: USER, password: USER_PASSWORD })).statusCode).toBe(
      403,
    );
    expect((await new TestClient(h).post('/accounts/login', { email: USER, password: NEW_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('refuses a wrong current password and counts it toward lock-out', async () => {
    await addUser();
    const c = await user();
    const res = await c.post('/accounts/me/update-password', { current: 'not my password', password: NEW_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    expect(credOf(USER).failed_attempts).toBe(1);
    for (let i = 0; i < 4; i++) {
      await c.post('/accounts/me/update-password', { current: 'not my password', password: NEW_PASSWORD });
    }
    // The lock-out ended the session too (issue #13 item 2): the right password changes nothing now.
    const locked = await c.post('/accounts/me/update-password', { current: USER_PASSWORD, password: NEW_PASSWORD });
    expect(locked.statusCode).toBe(403);
    expect(credOf(USER).locked_until).not.toBeNull();
  });

  it('refuses a weak new password and callers without a session', async () => {
    await addUser();
    const c = await user();
    const weak = await c.post('/accounts/me/update-password', { current: USER_PASSWORD, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ errCode: 'service.validation.password' });
    const anon = await new TestClient(h).post('/accounts/me/update-password', {
      current: USER_PASSWORD,
      password: NEW_PASSWORD,
    });
    expect(anon.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });
});

describe('password reset', () => {
  const request = (email: string) => new TestClient(h).post('/accounts/request-password-reset', { email });

  it('answers the same for an unknown and a known email, and writes a link only for the real account', async () => {
    await addUser();
    const unknown = await request('nobody@example.test');
    const known = await request(USER.toUpperCase());
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ object: 'result', data: true });
    const messages = outbox();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: 'passwordReset', recipient: USER });
    const token = tokenIn(messages[0]!.body);
    const dump = JSON.stringify(h.svc.db.prepare('SELECT * FROM password_resets').all());
    expect(dump).not.toContain(token);
  });

  it('sets the password, once; ends sessions and clears the lock-out', async () => {
    await addUser();
    const c = await user();
    for (let i = 0; i < 5; i++)
      await new TestClient(h).post('/accounts/login', { email: USER, password: 'wrong one!' });
    expect(credOf(USER).locked_until).not.toBeNull();
    await request(USER);
    const token = tokenIn(outbox()[0]!.body);
    const res = await new TestClient(h).post('/accounts/reset-password', { token, password: NEW_PASSWORD });
    expect(res.json()).toEqual({ object: 'result', data: true });
    expect((await c.get('/accounts/me')).json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
    expect(credOf(USER)).toMatchObject({ failed_attempts: 0, locked_until: null });
    const login = await new TestClient(h).post('/accounts/login', { email: USER, password: NEW_PASSWORD });
    expect(login.json()).toMatchObject({ email: USER, locked: false });
    const reused = await new TestClient(h).post('/accounts/reset-password', { token, password: 'yet another one' });
    expect(reused.statusCode).toBe(403);
    expect(reused.json()).toMatchObject({ errCode: 'service.accessDenied.invalidToken' });
  });

  it('accepts the token through one hour and refuses it one millisecond later', async () => {
    await addUser();
    await request(USER);
    const first = tokenIn(outbox()[0]!.body);
    await request(USER);
    const second = tokenIn(outbox()[0]!.body);
    h.clock.advance(HOUR);
    expect(
      (await new TestClient(h).post('/accounts/reset-password', { token: first, password: NEW_PASSWORD })).json(),
    ).toEqual({ object: 'result', data: true });
    // A successful reset voids the other outstanding links, so check expiry with a fresh pair.
    expect(
      (await new TestClient(h).post('/accounts/reset-password', { token: second, password: NEW_PASSWORD })).json(),
    ).toMatchObject({ errCode: 'service.accessDenied.invalidToken' });
    await request(USER);
    const third = tokenIn(outbox()[0]!.body);
    h.clock.advance(HOUR + 1);
    const late = await new TestClient(h).post('/accounts/reset-password', { token: third, password: NEW_PASSWORD });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ errCode: 'service.expired.token', code: 'kExpired', status: 403 });
  });

  it('refuses a weak password without using up the token, and a verification token', async () => {
    await addUser();
    await request(USER);
    const token = tokenIn(outbox()[0]!.body);
    const weak = await new TestClient(h).post('/accounts/reset-password', { token, password: 'short' });
    expect(weak.json()).toMatchObject({ errCode: 'service.validation.password' });
    await new TestClient(h).post('/accounts/register', { email: 'fresh@example.test', password: 'fresh password' });
    const verifyToken = tokenIn(outbox()[0]!.body);
    const wrongKind = await new TestClient(h).post('/accounts/reset-password', {
      token: verifyToken,
      password: NEW_PASSWORD,
    });
    expect(wrongKind.json()).toMatchObject({ errCode: 'service.accessDenied.invalidToken' });
    expect(
      (await new TestClient(h).post('/accounts/reset-password', { token, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
  });
});

describe('authenticator enrolment', () => {
  it('returns a base32 secret and an otpauth URL, stores the secret encrypted, and activates on confirm', async () => {
    await addUser();
    const c = await user();
    const res = await c.post('/accounts/me/totp', { password: USER_PASSWORD });
    const { secret, otpauthUrl } = res.json().data as { secret: string; otpauthUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const stored = credOf(USER);
    expect(stored.totp_secret_enc).toMatch(/^v1\./);
    expect(stored.totp_secret_enc).not.toContain(secret);
    expect(stored.totp_last_step).toBeNull();

    const wrong = await c.post('/accounts/me/totp/confirm', { code: wrongDigits(totpCode(secret, h.clock.now())) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    const ok = await c.post('/accounts/me/totp/confirm', { code: totpCode(secret, h.clock.now()) });
    expect(ok.json()).toEqual({ object: 'result', data: { active: true } });
    expect(credOf(USER).totp_last_step).toBe(Math.floor(h.clock.now() / 30_000));

    const again = await c.post('/accounts/me/totp', { password: USER_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errCode: 'service.exists.totp' });
    const reconfirm = await c.post('/accounts/me/totp/confirm', { code: totpCode(secret, h.clock.now() + 30_000) });
    expect(reconfirm.json()).toMatchObject({ errCode: 'service.exists.totp' });
  });

  it('refuses a confirmation without an enrolment', async () => {
    await addUser();
    const res = await (await user()).post('/accounts/me/totp/confirm', { code: '123456' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errCode: 'service.notFound.totp' });
  });

  it('removes the authenticator only with a valid, unused code; wrong codes count toward lock-out', async () => {
    await addUser();
    const c = await user();
    const { secret } = (await c.post('/accounts/me/totp', { password: USER_PASSWORD })).json().data as {
      secret: string;
    };
    const now = h.clock.now();
    await c.post('/accounts/me/totp/confirm', { code: totpCode(secret, now) });
    const reused = await c.request('DELETE', '/accounts/me/totp', {
      code: totpCode(secret, now),
      password: USER_PASSWORD,
    });
    expect(reused.statusCode).toBe(403);
    expect(reused.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    expect(credOf(USER).failed_attempts).toBe(1);
    const ok = await c.request('DELETE', '/accounts/me/totp', {
      code: totpCode(secret, now + 30_000),
      password: USER_PASSWORD,
    });
    expect(ok.json()).toEqual({ object: 'result', data: true });
    expect(credOf(USER).totp_secret_enc).toBeNull();
    const none = await c.request('DELETE', '/accounts/me/totp', {
      code: totpCode(secret, now + 60_000),
      password: USER_PASSWORD,
    });
    expect(none.json()).toMatchObject({ errCode: 'service.notFound.totp' });
    expect((await new TestClient(h).post('/accounts/login', { email: USER, password: USER_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('enrols and removes only with the current password; a wrong one counts toward lock-out (issue #13 item 6)', async () => {
    await addUser();
    const c = await user();
    const noPassword = await c.post('/accounts/me/totp', {});
    expect(noPassword.statusCode).toBe(400);
    const wrong = await c.post('/accounts/me/totp', { password: 'not my password' });
    expect(wrong.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    expect(credOf(USER).failed_attempts).toBe(1);
    expect(credOf(USER).totp_secret_enc).toBeNull();
    const { secret } = (await c.post('/accounts/me/totp', { password: USER_PASSWORD })).json().data as {
      secret: string;
    };
    const now = h.clock.now();
    await c.post('/accounts/me/totp/confirm', { code: totpCode(secret, now) });
    const removeWrong = await c.request('DELETE', '/accounts/me/totp', {
      code: totpCode(secret, now + 30_000),
      password: 'not my password',
    });
    expect(removeWrong.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    expect(credOf(USER).totp_secret_enc).not.toBeNull();
  });

  it('needs a logged-in session', async () => {
    const res = await new TestClient(h).post('/accounts/me/totp', { password: USER_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });
});

describe('GET /outbox', () => {
  it('lists messages newest first with limit, skip and hasMore, for administrators only', async () => {
    await addUser();
    for (let i = 0; i < 3; i++) {
      await new TestClient(h).post('/accounts/request-password-reset', { email: USER });
      h.clock.advance(1000);
    }
    const a = await admin();
    const page = await a.get('/outbox?limit=2');
    expect(page.json()).toMatchObject({ object: 'list', hasMore: true });
    const data = page.json().data as { _id: string; created: string }[];
    expect(data).toHaveLength(2);
    expect(Object.keys(data[0]!).sort()).toEqual(['_id', 'body', 'created', 'kind', 'object', 'recipient', 'subject']);
    expect(data[0]).toMatchObject({ object: 'message', kind: 'passwordReset', recipient: USER });
    expect(data[0]!.created > data[1]!.created).toBe(true);
    const rest = await a.get('/outbox?limit=2&skip=2');
    expect(rest.json()).toMatchObject({ object: 'list', hasMore: false });
    expect(rest.json().data).toHaveLength(1);

    for (const bad of ['limit=0', 'limit=1001', 'skip=-1', 'limit=abc']) {
      const res = await a.get(`/outbox?${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.query' });
    }
    const asUser = await (await user()).get('/outbox');
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
    expect((await new TestClient(h).get('/outbox')).json()).toMatchObject({
      errCode: 'service.accessDenied.notLoggedIn',
    });
  });
});

describe('POST /accounts/:id/password (administrators)', () => {
  it('sets a strong password, ends the account’s sessions, and the new password signs in', async () => {
    const userId = await addUser();
    const u = await user();
    const a = await admin();
    const res = await a.post(`/accounts/${userId}/password`, { password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: userId });
    expect((await u.get('/accounts/me')).statusCode).toBe(403);
    await expect(user(USER, USER_PASSWORD)).rejects.toThrow(/login failed/);
    await user(USER, NEW_PASSWORD);
  });

  it('refuses weak passwords and non-administrators', async () => {
    const userId = await addUser();
    const a = await admin();
    const weak = await a.post(`/accounts/${userId}/password`, { password: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ errCode: 'service.validation.password' });
    const u = await user();
    const denied = await u.post(`/accounts/${userId}/password`, { password: NEW_PASSWORD });
    expect(denied.statusCode).toBe(403);
  });
});

describe('sessions (administrators)', () => {
  it('lists live sessions by an opaque id, never the cookie or its lookup hash', async () => {
    const userId = await addUser();
    const u = new TestClient(h);
    const sid = sidOf(
      await u.post('/accounts/login', { email: USER, password: USER_PASSWORD }, { 'user-agent': 'Probe/1.0' }),
    )!;
    const a = await admin();
    const res = await a.get('/sessions');
    expect(res.json()).toMatchObject({ object: 'list', hasMore: false });
    const data = res.json().data as Record<string, unknown>[];
    expect(data).toHaveLength(2);
    const mine = data.find((s) => s.account === userId)!;
    expect(mine).toEqual({
      object: 'session',
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      account: userId,
      app: h.consoleAppKey,
      created: new Date(h.clock.now()).toISOString(),
      lastSeen: new Date(h.clock.now()).toISOString(),
      ip: '127.0.0.1',
      userAgent: 'Probe/1.0',
      current: false,
    });
    // The administrator's own session is the one marked current.
    expect(data.find((s) => s.account !== userId)).toMatchObject({ current: true });
    expect((await u.get('/accounts/me')).statusCode).toBe(200);
    expect(res.body).not.toContain(sid);
    expect(res.body).not.toContain(hashSessionId(sid));
  });

  it('leaves out sessions idle past authDuration and ended ones', async () => {
    await addUser();
    const u = await user();
    h.clock.advance(900_001);
    const a = await admin();
    expect(((await a.get('/sessions')).json().data as unknown[]).length).toBe(1);
    expect((await u.get('/accounts/me')).statusCode).toBe(403);
  });

  it('ends one session by its id', async () => {
    const userId = await addUser();
    const u = await user();
    const a = await admin();
    const { id } = ((await a.get('/sessions')).json().data as { id: string; account: string }[]).find(
      (s) => s.account === userId,
    )!;
    expect((await a.delete(`/sessions/${id}`)).json()).toEqual({ object: 'result', data: true });
    expect((await u.get('/accounts/me')).json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
    expect((await a.get('/accounts/me')).statusCode).toBe(200);
    const gone = await a.delete(`/sessions/${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ errCode: 'service.notFound.session' });
  });

  it('is for administrators only', async () => {
    await addUser();
    const u = await user();
    expect((await u.get('/sessions')).json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
    expect((await u.delete('/sessions/0123456789abcdef')).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
  });
});

describe('unlock and two-factor reset (administrators)', () => {
  it('unlocks a locked account', async () => {
    const id = await addUser();
    for (let i = 0; i < 5; i++)
      await new TestClient(h).post('/accounts/login', { email: USER, password: 'wrong one!' });
    const a = await admin();
    const res = await a.post(`/accounts/${id}/unlock`);
    expect(res.json()).toMatchObject({ _id: id, locked: false });
    expect(credOf(USER)).toMatchObject({ failed_attempts: 0, locked_until: null });
    expect((await new TestClient(h).post('/accounts/login', { email: USER, password: USER_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('resets the authenticator and the known locations', async () => {
    const id = await addUser();
    const u = await user();
    const { secret } = (await u.post('/accounts/me/totp', { password: USER_PASSWORD })).json().data as {
      secret: string;
    };
    await u.post('/accounts/me/totp/confirm', { code: totpCode(secret, h.clock.now()) });
    const locations = new LocationRepository(h.svc.db);
    locations.remember(orgOf().id, id, 'fp-known-1', h.clock.now());
    const a = await admin();
    expect((await a.post(`/accounts/${id}/reset-two-factor`)).json()).toMatchObject({ _id: id });
    expect(credOf(USER)).toMatchObject({ totp_secret_enc: null, totp_last_step: null });
    expect(locations.isKnown(orgOf().id, id, 'fp-known-1')).toBe(false);
    expect((await new TestClient(h).post('/accounts/login', { email: USER, password: USER_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('refuses malformed and unknown ids, and non-administrators', async () => {
    const id = await addUser();
    const a = await admin();
    const bad = await a.post('/accounts/not-an-id/unlock');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.invalidObjectId' });
    const unknown = await a.post(`/accounts/${'f'.repeat(24)}/reset-two-factor`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ errCode: 'service.notFound.instance' });
    const u = await user();
    expect((await u.post(`/accounts/${id}/unlock`)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
    expect((await u.post(`/accounts/${id}/reset-two-factor`)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
  });
});

// The first administrator logs in with the default settings, whatever the two-factor options.
describe('defaults', () => {
  it('leave registration open and new-location verification off', async () => {
    expect(orgOf().settings).toMatchObject({ registrationEnabled: true, verifyNewLocations: false });
    expect(
      (await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).json(),
    ).toMatchObject({ object: 'account' });
  });
});
