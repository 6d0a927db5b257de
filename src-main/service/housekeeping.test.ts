/**
 * Issue #13 item 9: nothing grows forever. Every kind of row is pruned at an exact instant of the
 * service clock, with the org's retention settings; the schedule runs at start, then on a timer
 * that never keeps the process alive and stops when the server closes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from './testing/harness.js';
import { DAY_MS, Housekeeping, pruneOnce } from './housekeeping.js';
import { RESET_TICKET_TTL_MS } from './auth/sessions/account-tickets.js';
import { ANONYMOUS_LIMIT_WINDOW_MS } from './accounts/anonymous-limits.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const ACCOUNT = 'a'.repeat(24);
const orgOf = () => h.svc.orgs.byCode('demo')!;
const countRows = (table: string) => (h.svc.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const empty = {
  sessions: 0,
  accountTickets: 0,
  locationCodes: 0,
  nonces: 0,
  outbox: 0,
  storedTokens: 0,
  requestCounters: 0,
  unknownEmails: 0,
  logs: 0,
  audits: 0,
  jobRuns: 0,
};

/** One row of every kind, made at the clock's current instant. */
async function oneOfEach(withSession = true): Promise<void> {
  const { svc } = h;
  const org = orgOf();
  const now = svc.clock.now();
  if (withSession) await new TestClient(h).login();
  svc.accountTickets.issue('reset', org.id, ACCOUNT, RESET_TICKET_TTL_MS, now);
  svc.locations.startVerification(org.id, ACCOUNT, 'fp-one-12', now);
  svc.replays.remember(svc.apps.byKey(h.consoleAppKey)!.id, 'nonce00000000001', now, now + 15 * 60_000);
  svc.outbox.add(org.id, { kind: 'verification', recipient: 'x@example.test', subject: 's', body: 'b' }, now);
  svc.requestCounters.take([{ key: 'k', max: 5 }], ANONYMOUS_LIMIT_WINDOW_MS, now);
  svc.unknownEmails.begin(org.id, 'nobody@example.test', { lockAttempts: 1, lockDuration: 15 }, now);
  svc.unknownEmails.fail(org.id, 'nobody@example.test', { lockAttempts: 1, lockDuration: 15 }, now);
}

describe('pruning (issue #13 item 9)', () => {
  it('forgets each kind exactly when it can no longer matter, and not a millisecond before', async () => {
    await h.server.ready(); // the start-up run, on an empty service
    await oneOfEach();
    expect(pruneOnce(h.svc)).toEqual(empty);

    h.clock.advance(15 * 60_000); // nonces live through their window; the email's lock runs out now
    expect(pruneOnce(h.svc)).toEqual({ ...empty, locationCodes: 1, unknownEmails: 1 });
    h.clock.advance(1);
    expect(pruneOnce(h.svc)).toEqual({ ...empty, nonces: 1 });

    h.clock.advance(ANONYMOUS_LIMIT_WINDOW_MS - 15 * 60_000 - 1); // one hour after the start
    expect(pruneOnce(h.svc)).toEqual({ ...empty, requestCounters: 1 });
    h.clock.advance(1);
    expect(pruneOnce(h.svc)).toEqual({ ...empty, accountTickets: 1 });

    h.clock.advance(7 * DAY_MS - ANONYMOUS_LIMIT_WINDOW_MS - 1); // sessions: 7 days after last seen
    expect(pruneOnce(h.svc)).toEqual(empty);
    h.clock.advance(2);
    expect(pruneOnce(h.svc)).toEqual({ ...empty, sessions: 1 });

    h.clock.advance(23 * DAY_MS); // outbox: 30 days (the login wrote nothing to it)
    expect(pruneOnce(h.svc)).toEqual({ ...empty, outbox: 1 });
    for (const table of ['sessions', 'account_tickets', 'location_verifications', 'replay_entries', 'outbox']) {
      expect(countRows(table), table).toBe(0);
    }
    expect(countRows('request_counters') + countRows('unknown_email_lockouts')).toBe(0);
  });

  it("keeps sessions and messages as long as the org's retention settings say", async () => {
    h.svc.orgs.updateSettings(orgOf(), { sessionRetentionDays: 1, outboxRetentionDays: 2 });
    await oneOfEach();
    h.clock.advance(DAY_MS + 1);
    expect(pruneOnce(h.svc)).toMatchObject({ sessions: 1, outbox: 0 });
    h.clock.advance(DAY_MS);
    expect(pruneOnce(h.svc)).toMatchObject({ outbox: 1 });
  });

  it('never prunes a live session, even with a retention shorter than a day in the settings', async () => {
    h.svc.orgs.updateSettings(orgOf(), { sessionRetentionDays: 0 });
    const c = new TestClient(h);
    await c.login();
    h.clock.advance(DAY_MS - 1);
    expect(pruneOnce(h.svc).sessions).toBe(0);
  });

  it('forgets stored tokens that can never work again: revoked, expired, used up', async () => {
    const admin = new TestClient(h);
    await admin.login();
    const me = (await admin.get('/accounts/me')).json()._id as string;
    const mint = async (extra: Record<string, unknown>) =>
      (
        await admin.post(`/accounts/${me}/tokens`, {
          app: h.consoleAppKey,
          scope: ['object.read.account'],
          ...extra,
        })
      ).json().data as string;
    await mint({ permanent: true });
    await mint({ maxUses: 1, expiresIn: 60 });
    const revoked = await mint({ permanent: true });
    const jti = JSON.parse(Buffer.from(revoked.split('.')[1]!, 'base64url').toString()).jti as string;
    expect((await admin.request('DELETE', `/accounts/${me}/tokens/${jti}`)).statusCode).toBe(200);
    expect(pruneOnce(h.svc).storedTokens).toBe(1);
    h.clock.advance(60_000);
    expect(pruneOnce(h.svc).storedTokens).toBe(1);
    expect(countRows('tokens')).toBe(1);
  });
});

describe('the schedule', () => {
  it('prunes when the server starts, runs on an unref’d timer, and stops on close', async () => {
    expect(h.server.housekeeping.running).toBe(false);
    await oneOfEach(false); // no request yet: the server is not ready
    h.clock.advance(40 * DAY_MS);
    await h.server.ready();
    expect(h.server.housekeeping.running).toBe(true);
    expect(h.server.housekeeping.keepsProcessAlive).toBe(false);
    expect(countRows('outbox') + countRows('replay_entries') + countRows('account_tickets')).toBe(0);
    await h.server.close();
    expect(h.server.housekeeping.running).toBe(false);
  });

  it('runs again every interval', async () => {
    const housekeeping = new Housekeeping(h.svc);
    housekeeping.start(20);
    try {
      await oneOfEach();
      h.clock.advance(40 * DAY_MS);
      await new Promise((r) => setTimeout(r, 100));
      expect(countRows('outbox')).toBe(0);
    } finally {
      housekeeping.stop();
    }
  });
});
