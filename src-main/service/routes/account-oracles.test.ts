/**
 * Issue #13 item 7 (no account-existence oracles for anonymous callers) and the anonymous rate
 * limits of item 9. Every comparison is between an email that has an account and one that has
 * none: the answers must not differ.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { OutboxRepository } from '../accounts/outbox.js';
import type { OrgSettings } from '../orgs/orgs.js';
import { MAX_UNKNOWN_EMAILS_PER_ORG } from '../auth/sessions/unknown-email-lockout.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const HOUR = 60 * 60_000;
const orgOf = () => h.svc.orgs.byCode('demo')!;
const setOrg = (patch: Partial<OrgSettings>) => h.svc.orgs.updateSettings(orgOf(), patch);
const outbox = () => new OutboxRepository(h.svc.db, h.svc.cipher).list(orgOf().id, { skip: 0, limit: 100 }).data;
const COUNT = {
  credentials: 'SELECT count(*) AS n FROM credentials',
  sessions: 'SELECT count(*) AS n FROM sessions',
  account_tickets: 'SELECT count(*) AS n FROM account_tickets',
} as const;
const countRows = (table: keyof typeof COUNT) => (h.svc.db.prepare(COUNT[table]).get() as { n: number }).n;

/** What a response tells apart from its random parts: status, body shape, cookies and headers. */
function shapeOf(res: LightMyRequestResponse) {
  const body = res.json() as Record<string, unknown>;
  return {
    status: res.statusCode,
    keys: Object.keys(body).sort(),
    body: {
      ...body,
      _id: typeof body._id,
      created: typeof body.created,
      updated: typeof body.updated,
      // A fresh UUID each time (issue #15 item 6): its form, not its value.
      key: { fingerprint: /^[0-9a-f-]{36}$/.test(String((body.key as { fingerprint?: unknown })?.fingerprint)) },
    },
    cookies: res.cookies.map((c) => ({ ...c, value: c.value.length })).sort((a, b) => a.name.localeCompare(b.name)),
    csrf: String(res.headers['service-csrf-token']).length,
    headers: Object.keys(res.headers)
      .filter((k) => !['date', 'service-server-time', 'content-length'].includes(k))
      .sort(),
  };
}

describe('registration with a taken email (issue #13 item 7)', () => {
  const body = (email: string) => ({ email, password: 'a long password', name: { first: 'Sam', last: 'Doe' } });

  it('answers exactly like a new one and mails the existing owner instead', async () => {
    const fresh = await new TestClient(h).post('/accounts/register', body('Sam@Example.test'));
    const taken = await new TestClient(h).post('/accounts/register', body(ADMIN_EMAIL.toUpperCase()));
    expect(fresh.statusCode).toBe(200);
    expect(shapeOf(taken)).toEqual({
      ...shapeOf(fresh),
      body: { ...shapeOf(fresh).body, email: ADMIN_EMAIL },
    });
    // Nothing was created for the taken email; its owner is told through the outbox.
    expect(countRows('credentials')).toBe(2);
    const [latest] = outbox();
    expect(latest).toMatchObject({ kind: 'registrationAttempt', recipient: ADMIN_EMAIL });
    expect(latest!.body).toContain('request-password-reset');
    expect(outbox().filter((m) => m.recipient === ADMIN_EMAIL)).toHaveLength(1);
    // The owner's password still works; the stranger's does not.
    expect((await new TestClient(h).login()).statusCode).toBe(200);
    const stranger = await new TestClient(h).post('/accounts/login', {
      email: ADMIN_EMAIL,
      password: 'a long password',
    });
    expect(stranger.statusCode).toBe(403);
  });

  it("hashes the password for a taken email as for a new one, and the decoy's cookie opens nothing", async () => {
    const c = new TestClient(h);
    const taken = await c.post('/accounts/register', body(ADMIN_EMAIL));
    expect(taken.statusCode).toBe(200);
    // Documented in docs/SECURITY.md: the cookie names no session.
    expect((await c.get('/accounts/me')).json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
    expect(countRows('sessions')).toBe(0);
  });
});

describe('lock-out for unknown emails (issue #13 item 7)', () => {
  const KNOWN = ADMIN_EMAIL;
  const UNKNOWN = 'nobody@example.test';
  const guess = (email: string) =>
    new TestClient(h).post('/accounts/login', { email, password: 'not the password' }).then((r) => ({
      status: r.statusCode,
      body: r.json() as Record<string, unknown>,
    }));

  it('answers an unknown email exactly as a known one, attempt after attempt, locked and unlocked', async () => {
    setOrg({ lockAttempts: 2, lockDuration: 15 });
    const answers = async () => {
      const known = [];
      const unknown = [];
      for (let i = 0; i < 3; i++) {
        known.push(await guess(KNOWN));
        unknown.push(await guess(UNKNOWN));
      }
      return { known, unknown };
    };
    const first = await answers();
    expect(first.unknown).toEqual(first.known);
    // A plain refusal, the refusal that locks (child accountLocked), then top-level accountLocked.
    const shape = (a: { body: Record<string, unknown> }) => [
      a.body.errCode,
      ...((a.body.faults as { errCode: string }[] | undefined) ?? []).map((f) => f.errCode),
    ];
    expect(first.known.map(shape)).toEqual([
      ['service.accessDenied.invalidCredentials'],
      ['service.accessDenied.invalidCredentials', 'service.accessDenied.accountLocked'],
      ['service.accessDenied.accountLocked'],
    ]);
    // Both locks run out at the same instant.
    h.clock.advance(15 * 60_000 - 1);
    const stillLocked = await guess(UNKNOWN);
    expect(stillLocked).toEqual(await guess(KNOWN));
    expect(stillLocked.body.errCode).toBe('service.accessDenied.accountLocked');
    h.clock.advance(1);
    const unlocked = await guess(UNKNOWN);
    expect(unlocked).toEqual(await guess(KNOWN));
    expect(unlocked.body.faults).toBeUndefined();
  }, 90_000);

  it('counts unknown-email guesses sent at once like an account’s: at most lockAttempts evaluated', async () => {
    setOrg({ lockAttempts: 3 });
    const burst = (email: string) => Promise.all(Array.from({ length: 7 }, () => guess(email)));
    const summary = (all: { body: Record<string, unknown> }[]) =>
      all.map((a) => (a.body.errCode === 'service.accessDenied.invalidCredentials' ? 'wrong' : 'locked')).sort();
    const [known, unknown] = await Promise.all([burst(KNOWN), burst(UNKNOWN)]);
    expect(summary(unknown)).toEqual(summary(known));
    expect(summary(known).filter((s) => s === 'wrong')).toHaveLength(3);
  }, 90_000);

  it('stores no email in clear and stays bounded', async () => {
    await guess('Typo.Person@Example.test');
    const dump = JSON.stringify(h.svc.db.prepare('SELECT * FROM unknown_email_lockouts').all());
    expect(dump).not.toMatch(/typo/i);
    expect(h.svc.unknownEmails.count(orgOf().id)).toBe(1);
    expect(MAX_UNKNOWN_EMAILS_PER_ORG).toBeLessThanOrEqual(100_000);
  });
});

describe('request-password-reset does the same work for both (issue #13 item 7)', () => {
  it('makes and writes the token and message for an unknown email too, then keeps nothing', async () => {
    const issue = vi.spyOn(h.svc.accountTickets, 'issue');
    const add = vi.spyOn(h.svc.outbox, 'add');
    const reset = (email: string) => new TestClient(h).post('/accounts/request-password-reset', { email });
    const unknown = await reset('nobody@example.test');
    expect(issue).toHaveBeenCalledTimes(1);
    expect(add).toHaveBeenCalledTimes(1);
    expect(countRows('account_tickets')).toBe(0);
    expect(outbox()).toEqual([]);
    const known = await reset(ADMIN_EMAIL);
    expect(issue).toHaveBeenCalledTimes(2);
    expect(add).toHaveBeenCalledTimes(2);
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(countRows('account_tickets')).toBe(1);
    expect(outbox()).toHaveLength(1);
  });
});

describe('anonymous rate limits (issue #13 item 9)', () => {
  const reset = (email: string) =>
    new TestClient(h).post('/accounts/request-password-reset', { email }).then((r) => ({
      status: r.statusCode,
      body: r.json() as Record<string, unknown>,
    }));
  const register = (email: string) =>
    new TestClient(h)
      .post('/accounts/register', { email, password: 'a long password' })
      .then((r) => ({ status: r.statusCode, body: r.json() as Record<string, unknown> }));

  it('answers throttled.policy beyond the per-email limit, for known and unknown emails alike, in parallel', async () => {
    setOrg({ anonymousRequestsPerEmail: 3, anonymousRequestsPerOrg: 1000 });
    const [known, unknown] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => reset(ADMIN_EMAIL))),
      Promise.all(Array.from({ length: 12 }, () => reset('nobody@example.test'))),
    ]);
    for (const results of [known, unknown]) {
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r).toMatchObject({
          status: 429,
          body: { object: 'fault', code: 'kThrottled', errCode: 'service.throttled.policy', status: 429 },
        });
      }
    }
    expect(outbox()).toHaveLength(3);
    // A new window admits again.
    h.clock.advance(HOUR);
    expect((await reset(ADMIN_EMAIL)).status).toBe(200);
  });

  it('limits per org, and creates no per-email counter for a request the org limit refused', async () => {
    setOrg({ anonymousRequestsPerEmail: 5, anonymousRequestsPerOrg: 8 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => reset(`person${i}@example.test`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
    expect(results.filter((r) => r.status === 429)).toHaveLength(12);
    expect(h.svc.requestCounters.count()).toBe(1 + 8);
  });

  it('limits registration per email whether or not it is taken', async () => {
    setOrg({ anonymousRequestsPerEmail: 2 });
    const taken = await Promise.all(Array.from({ length: 5 }, () => register(ADMIN_EMAIL)));
    const fresh = await Promise.all(Array.from({ length: 5 }, () => register('new.person@example.test')));
    const statuses = (all: { status: number }[]) => all.map((r) => r.status).sort();
    expect(statuses(taken)).toEqual(statuses(fresh));
    expect(statuses(fresh)).toEqual([200, 200, 429, 429, 429]);
  });
});
