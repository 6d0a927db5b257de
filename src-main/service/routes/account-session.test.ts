import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { LOCATION_CODES_PER_WINDOW } from '../auth/sessions/two-factor.js';
import { OutboxRepository } from '../accounts/outbox.js';
import { LocationRepository } from '../auth/sessions/location.js';
import { totpCode } from '../auth/sessions/totp.js';
import type { OrgSettings } from '../orgs/orgs.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../open-service.js';

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
    // Already locked: top-level accountLocked, even for the right password (docs/compatibility.md#requests-cookies-and-fault-codes).
    expect(locked.json()).toMatchObject({ errCode: 'service.accessDenied.accountLocked', code: 'kAccountLocked' });
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

  // Sessions and the caller's roles are cached in memory; another process (the admin CLI) writing
  // to the same database must still be obeyed by the requests that follow.
  it('ended by another process is refused within a millisecond', async () => {
    const c = new TestClient(h);
    await c.login();
    expect((await c.get('/accounts/me')).statusCode).toBe(200);
    const cli = new Database(join(h.dataDir, 'service.db'));
    cli.prepare("UPDATE sessions SET ended_reason = 'revoked'").run();
    cli.close();
    await new Promise((resolve) => setTimeout(resolve, 5)); // past the caches' staleness bound (1 ms)
    const res = await c.get('/accounts/me');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });

  it("follows an account's roles changed by another process", async () => {
    const c = new TestClient(h);
    await c.login();
    expect((await c.get('/apps')).statusCode).toBe(200); // administrators only
    const cli = openService({ dataDir: h.dataDir, masterKey: randomBytes(32) }); // as the admin CLI opens it
    try {
      const org = cli.orgs.byCode('demo')!;
      const accountId = cli.credentials.byEmail(org.id, ADMIN_EMAIL)!.account_id;
      cli.store.update(org.id, cli.defs.byName(org.id, 'account')!, accountId, { roles: [] });
    } finally {
      cli.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // past the caches' staleness bound (1 ms)
    expect((await c.get('/apps')).json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
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

// --- registration, new-location verification and authenticator login (issue #4)

const outboxOf = (h: Harness) =>
  new OutboxRepository(h.svc.db, h.svc.cipher).list(orgOf(h).id, { skip: 0, limit: 100 }).data;
const orgOf = (h: Harness) => h.svc.orgs.byCode('demo')!;
const setOrg = (h: Harness, patch: Partial<OrgSettings>) => h.svc.orgs.updateSettings(orgOf(h), patch);
const lastCode = (h: Harness) => /\b(\d{6})\b/.exec(outboxOf(h)[0]!.body)![1]!;
const sidOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((x) => x.name === 'service.sid')?.value;
const adminId = (h: Harness) => h.svc.credentials.byEmail(orgOf(h).id, ADMIN_EMAIL)!.account_id;

describe('register', () => {
  const NEW = { email: 'New.User@Example.test', password: 'a long password', name: { first: 'New', last: 'User' } };

  it('creates an unverified account, starts a session like login, and sends a verification token', async () => {
    const c = new TestClient(h);
    const res = await c.post('/accounts/register', NEW);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      object: 'account',
      email: 'new.user@example.test',
      state: 'unverified',
      roles: [],
      name: { first: 'New', last: 'User' },
    });
    expect(res.body).not.toContain('scrypt');
    expect(res.cookies.find((x) => x.name === 'service.sid')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(res.headers['service-csrf-token']).toMatch(/^[\w-]{20,}$/);
    expect((await c.get('/accounts/me')).json()).toMatchObject({ email: 'new.user@example.test' });
    const [message] = outboxOf(h);
    expect(message).toMatchObject({ kind: 'verification', recipient: 'new.user@example.test' });
    const token = /"token":"([\w-]+)"/.exec(message!.body)![1]!;
    const verified = await c.post('/accounts/verify', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ email: 'new.user@example.test', state: 'verified' });
    // The same user can log in with the password it registered.
    expect((await new TestClient(h).post('/accounts/login', NEW)).statusCode).toBe(200);
  });

  it('never takes roles, state or the locked flag from the body', async () => {
    const res = await new TestClient(h).post('/accounts/register', {
      ...NEW,
      roles: ['000000000000000000000004'],
      state: 'verified',
      locked: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'unverified', roles: [] });
    expect(res.json().locked).toBeUndefined();
  });

  it('is refused when the org turns registration off', async () => {
    setOrg(h, { registrationEnabled: false });
    const res = await new TestClient(h).post('/accounts/register', NEW);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      errCode: 'service.accessDenied.registration',
      code: 'kSelfRegistrationDisabled',
    });
    expect(h.svc.credentials.byEmail(orgOf(h).id, NEW.email)).toBeUndefined();
  });

  it('refuses a weak password, and callers without a session app', async () => {
    const weak = await new TestClient(h).post('/accounts/register', { ...NEW, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ errCode: 'service.validation.password' });
    const noKey = await new TestClient(h, '').post('/accounts/register', NEW);
    expect(noKey.json()).toMatchObject({ errCode: 'service.notFound.app' });
    const { app: signing } = await h.svc.apps.create(
      orgOf(h).id,
      'signing',
      { label: 'backend', allowUnsigned: true },
      h.svc.nowIso(),
    );
    const wrongKind = await new TestClient(h, signing.key).post('/accounts/register', NEW);
    expect(wrongKind.statusCode).toBe(403);
    expect(wrongKind.json()).toMatchObject({ errCode: 'service.accessDenied.app' });
    expect(outboxOf(h)).toEqual([]);
  });
});

describe('login: session rotation', () => {
  it('issues a new session id at every login and ends the one presented', async () => {
    setOrg(h, { allowSimultaneousLogins: true });
    const c = new TestClient(h);
    const first = sidOf(await c.login());
    const second = sidOf(await c.login());
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const stale = await h.server.inject({
      method: 'GET',
      url: '/demo/v2/accounts/me',
      headers: { host: '127.0.0.1', 'service-client-key': h.consoleAppKey, cookie: `service.sid=${first}` },
    });
    expect(stale.statusCode).toBe(403);
    expect((await c.get('/accounts/me')).statusCode).toBe(200);
  });
});

describe('login: new-location verification', () => {
  beforeEach(() => {
    setOrg(h, { verifyNewLocations: true });
  });

  it('is off by default, and logins remember their location anyway', async () => {
    setOrg(h, { verifyNewLocations: false });
    const c = new TestClient(h);
    const res = await c.login();
    const fp = res.cookies.find((x) => x.name === 'service.fingerprint')!.value;
    expect(new LocationRepository(h.svc.db).isKnown(orgOf(h).id, adminId(h), fp)).toBe(true);
    expect(outboxOf(h)).toEqual([]);
  });

  it('answers a correct password from an unknown browser with kNewLocation (200) and sends a code', async () => {
    const c = new TestClient(h);
    const res = await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'fault',
      name: 'location',
      code: 'kNewLocation',
      errCode: 'service.success.newLocation',
      status: 200,
      message: expect.any(String),
      reason: expect.any(String),
    });
    expect(sidOf(res)).toBeUndefined();
    expect(res.cookies.find((x) => x.name === 'service.fingerprint')?.value).toMatch(/^[\w-]{20,}$/);
    expect((await c.get('/accounts/status')).json()).toEqual({ object: 'result', data: { loggedin: false } });
    expect(outboxOf(h)[0]).toMatchObject({ kind: 'locationCode', recipient: ADMIN_EMAIL });

    const code = lastCode(h);
    const ok = await c.post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      location: { verificationToken: code },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ object: 'account', email: ADMIN_EMAIL });
    expect(sidOf(ok)).toBeDefined();
    // The browser is now known: no code is needed any more.
    expect((await c.login()).json()).toMatchObject({ object: 'account' });
    expect(outboxOf(h)).toHaveLength(1);
    // Another browser is still a new location.
    const other = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(other.json()).toMatchObject({ code: 'kNewLocation' });
  });

  it('checks the password first: a wrong one is invalidCredentials and sends nothing', async () => {
    const res = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: 'wrong password' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    expect(outboxOf(h)).toEqual([]);
  });

  it('refuses a wrong code, and after five tries refuses even the right one', async () => {
    setOrg(h, { lockAttempts: 10 }); // so the code's own limit, not the lock-out, answers
    const c = new TestClient(h);
    await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const code = lastCode(h);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const attempt = (token: string) =>
      c.post('/accounts/login', {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
        location: { verificationToken: token },
      });
    for (let i = 0; i < 5; i++) {
      const res = await attempt(wrong);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.locationToken' });
    }
    const late = await attempt(code);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ errCode: 'service.expired.locationToken', code: 'kExpired' });
    expect(sidOf(late)).toBeUndefined();
  });

  it('counts wrong codes toward the account lock-out (issue #13 item 6)', async () => {
    const c = new TestClient(h);
    await c.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const code = lastCode(h);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      await c.post('/accounts/login', {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
        location: { verificationToken: wrong },
      });
    }
    // Locked: a fresh code (one more password login) no longer helps.
    const again = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(again.statusCode).toBe(403);
    expect(JSON.stringify(again.json())).toContain('accountLocked');
  });

  it('caps the codes sent per account per hour (issue #13 item 6)', async () => {
    for (let i = 0; i < LOCATION_CODES_PER_WINDOW; i++) {
      const res = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(res.json()).toMatchObject({ code: 'kNewLocation' });
    }
    const over = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(over.json()).toMatchObject({ errCode: 'service.throttled.policy' });
    expect(outboxOf(h)).toHaveLength(LOCATION_CODES_PER_WINDOW);
    h.clock.advance(60 * 60_000 + 1);
    const later = await new TestClient(h).post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(later.json()).toMatchObject({ code: 'kNewLocation' });
  });

  it('accepts the code through ten minutes and refuses it one millisecond later', async () => {
    const a = new TestClient(h);
    await a.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const codeA = lastCode(h);
    const b = new TestClient(h);
    h.clock.advance(1);
    await b.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const codeB = lastCode(h);
    h.clock.advance(10 * 60_000 - 1); // exactly ten minutes after A's code, 1 ms short for B's
    const late = await a.post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      location: { verificationToken: codeA },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ object: 'account' });
    h.clock.advance(2); // B's code is now ten minutes and one millisecond old
    const expired = await b.post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      location: { verificationToken: codeB },
    });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ errCode: 'service.expired.locationToken' });
  });

  it("does not let one browser use another browser's code", async () => {
    const a = new TestClient(h);
    await a.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const codeA = lastCode(h);
    const b = new TestClient(h);
    const res = await b.post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      location: { verificationToken: codeA },
    });
    expect(res.json()).toMatchObject({ code: 'kNewLocation' });
    expect(sidOf(res)).toBeUndefined();
    const ok = await a.post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      location: { verificationToken: codeA },
    });
    expect(ok.json()).toMatchObject({ object: 'account' });
  });
});

describe('login: authenticator (TOTP)', () => {
  const STEP = 30_000;
  /** Enrols the admin and confirms with the code of step `confirmDelta`; returns the secret. */
  async function enrol(c: TestClient, confirmDelta = 0): Promise<string> {
    await c.login();
    const { secret } = (await c.post('/accounts/me/totp', { password: ADMIN_PASSWORD })).json().data as {
      secret: string;
    };
    const confirm = await c.post('/accounts/me/totp/confirm', {
      code: totpCode(secret, h.clock.now() + confirmDelta * STEP),
    });
    expect(confirm.json()).toEqual({ object: 'result', data: { active: true } });
    return secret;
  }
  const loginWith = (totp?: string) =>
    new TestClient(h).post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      ...(totp ? { totp } : {}),
    });

  it('requires the code once active: missing → totpRequired', async () => {
    await enrol(new TestClient(h));
    const res = await loginWith();
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.totpRequired', code: 'kAccessDenied' });
    expect(sidOf(res)).toBeUndefined();
  });

  it('accepts steps −1, 0 and +1 once each, refuses ±2 and a step used before', async () => {
    const secret = await enrol(new TestClient(h), -1); // step s−1 is now used
    const at = (d: number) => totpCode(secret, h.clock.now() + d * STEP);
    const refused = async (code: string) => {
      const res = await loginWith(code);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.invalidCredentials' });
    };
    await refused(at(-1)); // used at enrolment
    await refused(at(-2));
    await refused(at(2));
    expect((await loginWith(at(0))).statusCode).toBe(200);
    await refused(at(0)); // same step twice
    expect((await loginWith(at(1))).statusCode).toBe(200);
    await refused(at(0)); // earlier than the last used step
    await refused(at(1));
  });

  it('accepts a code from the previous step (−1) and the next (+1) at the login', async () => {
    const secret = await enrol(new TestClient(h), -1);
    h.clock.advance(STEP); // now s+1: the code of s is −1
    expect((await loginWith(totpCode(secret, h.clock.now() - STEP))).statusCode).toBe(200);
    h.clock.advance(STEP - 1); // last ms of s+1: the code of s+2 is +1
    expect((await loginWith(totpCode(secret, h.clock.now() + 1))).statusCode).toBe(200);
  });

  it('counts wrong codes toward lock-out', async () => {
    const secret = await enrol(new TestClient(h));
    const wrong = String((Number(totpCode(secret, h.clock.now())) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) await loginWith(wrong);
    const locked = await loginWith(totpCode(secret, h.clock.now() + STEP));
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ errCode: 'service.accessDenied.accountLocked', code: 'kAccountLocked' });
  });

  it('is not needed while the enrolment is unconfirmed', async () => {
    const c = new TestClient(h);
    await c.login();
    await c.post('/accounts/me/totp', { password: ADMIN_PASSWORD });
    expect((await loginWith()).statusCode).toBe(200);
  });

  it('stands in for new-location verification', async () => {
    const secret = await enrol(new TestClient(h));
    setOrg(h, { verifyNewLocations: true });
    const res = await loginWith(totpCode(secret, h.clock.now() + STEP));
    expect(res.json()).toMatchObject({ object: 'account' });
    expect(outboxOf(h)).toEqual([]);
  });
});

describe('an administrator lock', () => {
  it('blocks login until the administrator unlocks, and an unlock lifts an indefinite lock-out too', async () => {
    const admin = new TestClient(h);
    await admin.login();
    const user = (await admin.post('/accounts', { email: 'locked@example.test', password: 'a long password' })).json();
    expect((await admin.patch(`/accounts/${user._id}`, { locked: true })).json()).toMatchObject({ locked: true });
    const refused = await new TestClient(h).post('/accounts/login', {
      email: 'locked@example.test',
      password: 'a long password',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errCode: 'service.accessDenied.accountLocked', code: 'kAccountLocked' });
    await admin.patch(`/accounts/${user._id}`, { locked: false });
    expect((await new TestClient(h).login('locked@example.test', 'a long password')).statusCode).toBe(200);

    h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { lockDuration: 0 });
    for (let i = 0; i < 5; i++) {
      await new TestClient(h).post('/accounts/login', { email: 'locked@example.test', password: 'wrong wrong' });
    }
    h.clock.advance(365 * 86400_000);
    const stillLocked = await new TestClient(h).post('/accounts/login', {
      email: 'locked@example.test',
      password: 'a long password',
    });
    expect(stillLocked.statusCode).toBe(403);
    await admin.login();
    await admin.patch(`/accounts/${user._id}`, { locked: false });
    expect((await new TestClient(h).login('locked@example.test', 'a long password')).statusCode).toBe(200);
  });
});
