/**
 * The verified-token cache (issue #14 item 3): a token's signature is checked once, and a cached
 * token stops working at once when it is revoked, its app's RSA pair is regenerated, its app is
 * disabled, its account changes, or it expires; limited-use tokens still count every use exactly.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import type { App } from '../../apps/apps.js';
import { BearerClient, createUser, mint } from '../../testing/token-testing.js';
import { authenticateToken, tokenCache } from './token-auth.js';
import { decodeJwt } from 'jose';
import type { DataVersion } from '../../db/data-version.js';
import { VerifiedTokenCache, type VerifiedToken } from './verified-tokens.js';

let h: Harness;
let admin: TestClient;
let app: App;
let aliceId: string;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  app = h.svc.apps.byKey(h.consoleAppKey)!;
  aliceId = await createUser(admin, 'alice@example.test');
});
afterEach(async () => h.close());

const use = (token: string) => new BearerClient(h, token).get('/accounts');

/** Uses the token twice, so the second call is answered from the cache, and checks it was. */
async function useWarm(token: string) {
  expect((await use(token)).statusCode).toBe(200);
  expect((await use(token)).statusCode).toBe(200);
  expect(tokenCache(h.svc).get(token)).toBeDefined();
}

async function expectRefused(token: string, errCode: string) {
  const res = await use(token);
  expect(res.json(), res.body).toMatchObject({ object: 'fault', errCode });
}

describe('a verified token', () => {
  it('is verified once and then served from the cache, keyed on its exact text', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    await useWarm(token);
    // One character of the signature changed is another text: verified in full, and refused.
    const [head, body, sig] = token.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`;
    await expectRefused(flipped, 'service.accessDenied.invalidJwt');
    expect(tokenCache(h.svc).get(flipped)).toBeUndefined();
  });

  it('stops working at once when revoked', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true });
    await useWarm(token);
    const jti = decodeJwt(token).jti!;
    expect((await admin.delete(`/accounts/${aliceId}/tokens/${jti}`)).statusCode).toBe(200);
    expect(tokenCache(h.svc).get(token)).toBeUndefined();
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it("stops working at once when the app's RSA pair is regenerated", async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    await useWarm(token);
    await h.svc.apps.regenerateRsa(app, h.svc.nowIso());
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it('stops working at once when its app is disabled', async () => {
    const { app: extra } = await h.svc.apps.create(app.orgId, 'session', { label: 'extra' }, h.svc.nowIso());
    const token = await mint(admin, aliceId, { app: extra.key, scope: ['*'] });
    await useWarm(token);
    h.svc.apps.update(extra, { enabled: false });
    await expectRefused(token, 'service.accessDenied.invalidJwtApp');
  });

  it('is dropped when its account is written (locked) and refused once the account is gone', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    await useWarm(token);
    // Any write (here the admin locking the account) ends every entry: whatever the account's state
    // now says is read again by the checks that follow verification.
    expect((await admin.patch(`/accounts/${aliceId}`, { locked: true })).statusCode).toBeLessThan(500);
    expect(tokenCache(h.svc).get(token)).toBeUndefined();
    // A locked account's tokens are refused at once (issue #13 item 2), cached or not.
    await expectRefused(token, 'service.accessDenied.accountLocked');
    expect((await admin.delete(`/accounts/${aliceId}`)).statusCode).toBe(200);
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it('expires at exp on the service clock, cached or not', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], expiresIn: 60 });
    await useWarm(token);
    h.clock.advance(59_000);
    expect((await use(token)).statusCode).toBe(200);
    h.clock.advance(1_000);
    expect(tokenCache(h.svc).get(token)).toBeDefined();
    await expectRefused(token, 'service.expired.jwt');
  });

  it('still counts every use of a limited-use token exactly, under concurrency', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], maxUses: 5 });
    await useWarm(token); // two uses
    const results = await Promise.all(Array.from({ length: 8 }, () => use(token)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const r of results.filter((r) => r.statusCode !== 200))
      expect(r.json()).toMatchObject({ errCode: 'service.accessDenied.invalidJwt' });
    const row = h.svc.issuedTokens.byJti(decodeJwt(token).jti!)!;
    expect(row).toMatchObject({ uses_remaining: 0, times_authorized: 5 });
  });

  it('is answered without a promise once cached, its scopes derived once per entry and again after a write', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['object.read.account'] });
    await useWarm(token);
    const org = h.svc.orgs.byCode('demo')!;
    const input = {
      method: 'GET',
      url: '/demo/v2/accounts',
      headers: { authorization: `Bearer ${token}`, host: '127.0.0.1:7788' },
    };
    const first = authenticateToken(h.svc, org, input);
    expect(first).not.toBeInstanceOf(Promise);
    const second = authenticateToken(h.svc, org, input);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).not.toBe(first); // a fresh context per request…
    expect((second as { scopes: string[] }).scopes).toBe((first as { scopes: string[] }).scopes); // …sharing what was derived
    expect((first as { scopes: string[] }).scopes).toContain('object.read.account');
    // A write ends the entry: the next use verifies again (a promise) and derives afresh.
    expect((await admin.patch(`/accounts/${aliceId}`, { name: { first: 'Al' } })).statusCode).toBe(200);
    const again = authenticateToken(h.svc, org, input);
    expect(again).toBeInstanceOf(Promise);
    expect(((await again) as { scopes: string[] }).scopes).not.toBe((first as { scopes: string[] }).scopes);
  });
});

describe('the cache itself', () => {
  const still = { current: () => 7 } as unknown as DataVersion;
  const entry = (appId: number): VerifiedToken => ({ orgId: 1, appId, kid: 'k', alg: 'PS512', payload: {} });
  /** A token-like text: a distinct body, then a shared or distinct 32-character end. */
  const text = (body: string, end = body.padStart(32, '-')) => `${'h'.repeat(40)}.${body}.${'s'.repeat(600)}${end}`;

  it('finds an entry only by the exact text, though it indexes by the last 32 characters', () => {
    const cache = new VerifiedTokenCache(still);
    const token = text('alice', 'E'.repeat(32));
    cache.remember(token, entry(1), cache.begin());
    expect(cache.get(token)).toEqual(entry(1));
    // Same end, another body: another text, a miss (and it is then verified in full).
    expect(cache.get(text('mallory', 'E'.repeat(32)))).toBeUndefined();
    expect(cache.get(token.slice(1))).toBeUndefined();
    // A second text with the same end replaces the first rather than answering for it.
    cache.remember(text('bob', 'E'.repeat(32)), entry(2), cache.begin());
    expect(cache.get(token)).toBeUndefined();
    expect(cache.get(text('bob', 'E'.repeat(32)))).toEqual(entry(2));
    expect(cache.size).toBe(1);
  });

  it('evicts the oldest entry not used since the last eviction, and stays within its bound', () => {
    const cache = new VerifiedTokenCache(still, 3);
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((k) => text(k));
    for (const [i, t] of [a, b, c].entries()) cache.remember(t!, entry(i), cache.begin());
    cache.get(a!); // a used: it survives the next eviction, b (oldest unused) goes
    cache.remember(d!, entry(3), cache.begin());
    expect([a, b, c, d].map((t) => cache.get(t!) !== undefined)).toEqual([true, false, true, true]);
    // The checks used all three, now in the order c, a, d: the hand clears each in turn, sending it
    // to the back, and then evicts the first it meets again unflagged, c.
    cache.remember(e!, entry(4), cache.begin());
    expect([a, c, d, e].map((t) => cache.get(t!) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.size).toBe(3);
  });

  it('keeps nothing a write overtook, and empties on any write', () => {
    let version = 1;
    const versions = { current: () => version } as unknown as DataVersion;
    const cache = new VerifiedTokenCache(versions);
    const since = cache.begin();
    version++;
    cache.remember(text('late'), entry(1), since);
    expect(cache.get(text('late'))).toBeUndefined();
    cache.remember(text('fresh'), entry(1), cache.begin());
    expect(cache.get(text('fresh'))).toBeDefined();
    version++;
    expect(cache.get(text('fresh'))).toBeUndefined();
  });
});
