/**
 * Using tokens: the RFC 8725 attack set (each its own test), time boundaries on the frozen clock,
 * stored-token revocation and use counts, key mismatch, key rotation and app deletion, and
 * interoperability with a stock JWKS verifier.
 */
import { createHmac, createPublicKey } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalJWKSet, exportJWK, importPKCS8, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { bootstrapOrg } from '../../bootstrap.js';
import type { App } from '../../apps/apps.js';
import { BearerClient, createUser, mint } from '../../testing/token-testing.js';
import { orgAudience } from './token-claims.js';
import { currentAppKey } from './token-keys.js';

let h: Harness;
let admin: TestClient;
let app: App;
let aliceId: string;
const T = Date.parse('2026-01-15T12:00:00.000Z') / 1000;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  app = h.svc.apps.byKey(h.consoleAppKey)!;
  aliceId = await createUser(admin, 'alice@example.test');
});
afterEach(async () => h.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function claims(extra: JWTPayload = {}): JWTPayload {
  return { iss: app.key, sub: aliceId, aud: orgAudience('demo'), iat: T, exp: T + 600, 'service/scp': ['*'], ...extra };
}

/** Signs with the app's real private key under `alg`, with any header parameters we like. */
async function signWithAppKey(payload: JWTPayload, header: Record<string, unknown> = {}, alg = 'PS512') {
  const key = currentAppKey(h.svc.apps, app.id)!;
  const pem = h.svc.apps.currentKey(app.id)!.privatePem;
  return new SignJWT(payload)
    .setProtectedHeader({ alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(await importPKCS8(pem, alg));
}

async function use(token: string, headers: Record<string, string> = {}, org = 'demo') {
  return new BearerClient(h, token, headers, org).get('/accounts');
}

async function expectRefused(token: string, errCode: string, headers: Record<string, string> = {}) {
  const res = await use(token, headers);
  expect(res.json(), res.body).toMatchObject({ object: 'fault', errCode });
  return res;
}

describe('a genuine token', () => {
  it('authenticates as its subject, through its own app, with its scopes', async () => {
    const res = await use(await mint(admin, aliceId, { app: app.key, scope: ['object.read.account'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((a: { _id: string }) => a._id)).toEqual([aliceId]);
  });

  it('is accepted when hand-signed with the current key and pinned alg (control for the attacks below)', async () => {
    expect((await use(await signWithAppKey(claims()))).statusCode).toBe(200);
  });
});

describe('RFC 8725 attacks', () => {
  for (const alg of ['none', 'NONE', 'None', 'nOnE']) {
    it(`refuses alg "${alg}" with an empty signature`, async () => {
      const key = currentAppKey(h.svc.apps, app.id)!;
      const token = `${b64({ alg, kid: key.kid, typ: 'JWT' })}.${b64(claims())}.`;
      await expectRefused(token, 'service.accessDenied.invalidJwt');
    });
  }

  it('refuses HS256 signed with the public key PEM as the HMAC secret', async () => {
    const key = currentAppKey(h.svc.apps, app.id)!;
    const input = `${b64({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${b64(claims())}`;
    const mac = createHmac('sha256', key.publicPem).update(input).digest('base64url');
    await expectRefused(`${input}.${mac}`, 'service.accessDenied.invalidJwt');
  });

  it('refuses another RSA algorithm with the right key (the alg is pinned per key)', async () => {
    await expectRefused(await signWithAppKey(claims(), {}, 'RS256'), 'service.accessDenied.invalidJwt');
    await expectRefused(await signWithAppKey(claims(), {}, 'RS512'), 'service.accessDenied.invalidJwt');
  });

  it('refuses a foreign kid even when the signature is good', async () => {
    await expectRefused(
      await signWithAppKey(claims(), { kid: 'someone-elses-key' }),
      'service.accessDenied.invalidJwt',
    );
  });

  it('refuses a jku header and never fetches it', async () => {
    const token = await signWithAppKey(claims(), { jku: 'http://127.0.0.1:1/jwks.json' });
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it('refuses an x5u header', async () => {
    await expectRefused(
      await signWithAppKey(claims(), { x5u: 'http://127.0.0.1:1/cert.pem' }),
      'service.accessDenied.invalidJwt',
    );
  });

  it('refuses an embedded jwk, even the right public key', async () => {
    const jwk = await exportJWK(createPublicKey(currentAppKey(h.svc.apps, app.id)!.publicPem));
    await expectRefused(await signWithAppKey(claims(), { jwk }), 'service.accessDenied.invalidJwt');
  });

  it("checks a cached token's audience against the Host of every request", async () => {
    const token = await signWithAppKey(claims({ aud: 'http://127.0.0.1:7788/demo/v2' }));
    expect((await use(token)).statusCode).toBe(200); // verified and cached from 127.0.0.1:7788
    expect((await use(token)).statusCode).toBe(200); // a hit from the same host
    await expectRefused(token, 'service.accessDenied.invalidJwt', { host: '127.0.0.1:7789' });
    await expectRefused(token, 'service.accessDenied.invalidJwt', { host: 'localhost:7788' });
    expect((await use(token)).statusCode).toBe(200);
    // The port-less audience of older tokens fits any loopback host.
    const legacy = await signWithAppKey(claims());
    for (const host of ['127.0.0.1:7788', '127.0.0.1:7789', '127.0.0.1:7788'])
      expect((await use(legacy, { host })).statusCode).toBe(200);
  });

  it('refuses a wrong audience: another org, a lookalike and none at all', async () => {
    for (const aud of [orgAudience('other'), 'http://127.0.0.1/demo/v2/', 'http://evil.test/demo/v2']) {
      await expectRefused(await signWithAppKey(claims({ aud })), 'service.accessDenied.invalidJwt');
    }
    const { aud: _omit, ...noAud } = claims();
    await expectRefused(await signWithAppKey(noAud), 'service.accessDenied.invalidJwt');
  });

  it('refuses a wrong issuer: another app of the org (its key did not sign) or an unknown key', async () => {
    const { app: other } = await h.svc.apps.create(app.orgId, 'signing', { label: 'other' }, h.svc.nowIso());
    await expectRefused(await signWithAppKey(claims({ iss: other.key })), 'service.accessDenied.invalidJwt');
    await expectRefused(
      await signWithAppKey(claims({ iss: 'NoSuchApplicationKey00' })),
      'service.accessDenied.invalidJwtApp',
    );
    const { iss: _omit, ...noIss } = claims();
    await expectRefused(await signWithAppKey(noIss), 'service.accessDenied.invalidJwtApp');
  });

  it('refuses a token with one signature bit flipped', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    const [head, body, sig] = token.split('.') as [string, string, string];
    const bytes = Buffer.from(sig, 'base64url');
    bytes[bytes.length >> 1]! ^= 0x01;
    await expectRefused(`${head}.${body}.${bytes.toString('base64url')}`, 'service.accessDenied.invalidJwt');
  });

  it('refuses a tampered payload under the original signature', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['object.read.account'] });
    const [head, , sig] = token.split('.') as [string, string, string];
    await expectRefused(`${head}.${b64(claims({ 'service/scp': ['*'] }))}.${sig}`, 'service.accessDenied.invalidJwt');
  });

  it('refuses a token of another org, in both directions', async () => {
    const other = await bootstrapOrg(h.svc, {
      code: 'other',
      adminEmail: 'root@other.test',
      adminPassword: 'another long password',
    });
    h.org = 'other';
    const otherAdmin = new TestClient(h, other.consoleAppKey);
    await otherAdmin.login('root@other.test', 'another long password');
    const otherAdminId = (await otherAdmin.get('/accounts/me')).json()._id as string;
    const foreign = await mint(otherAdmin, otherAdminId, { app: other.consoleAppKey, scope: ['*'] });
    h.org = 'demo';
    expect((await use(foreign, {}, 'other')).statusCode).toBe(200);
    await expectRefused(foreign, 'service.accessDenied.invalidJwtApp');
    const ours = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    expect((await use(ours, {}, 'other')).json()).toMatchObject({ errCode: 'service.accessDenied.invalidJwtApp' });
  });

  it('refuses what is not a JWT at all, and an empty bearer', async () => {
    await expectRefused('not.a.jwt', 'service.invalidArgument.jwt');
    await expectRefused('x'.repeat(20_000), 'service.invalidArgument.jwt');
    const res = await h.server.inject({
      url: '/demo/v2/accounts',
      headers: { host: '127.0.0.1', authorization: 'Bearer ' },
    });
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.jwt' });
  });
});

describe('time', () => {
  it('is usable from nbf exactly and expired at exp exactly (frozen clock, no tolerance)', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], activatesIn: 60, expiresIn: 120 });
    const start = h.clock.now();
    h.clock.set(start + 59_999);
    expect((await expectRefused(token, 'service.accessDenied.invalidJwt')).json().reason).toContain('not valid yet');
    h.clock.set(start + 60_000);
    expect((await use(token)).statusCode).toBe(200);
    h.clock.set(start + 179_999);
    expect((await use(token)).statusCode).toBe(200);
    h.clock.set(start + 180_000);
    const expired = await expectRefused(token, 'service.expired.jwt');
    expect(expired.statusCode).toBe(403);
  });

  it('defaults the lifetime to the app authDuration from iat', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    h.clock.advance(app.settings.authDuration * 1000 - 1);
    expect((await use(token)).statusCode).toBe(200);
    h.clock.advance(1);
    await expectRefused(token, 'service.expired.jwt');
  });
});

describe('stored tokens', () => {
  it('refuses a revoked jti, and a jti that is not on record', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true });
    expect((await use(token)).statusCode).toBe(200);
    const [{ jti }] = (await admin.get(`/accounts/${aliceId}/tokens?app=${app.key}`)).json().data;
    expect((await admin.delete(`/accounts/${aliceId}/tokens/${jti}`)).json()).toEqual({ object: 'result', data: true });
    expect((await expectRefused(token, 'service.accessDenied.invalidJwt')).json().reason).toContain('revoked');
    const unrecorded = await signWithAppKey(claims({ jti: 'never-stored', exp: undefined }));
    await expectRefused(unrecorded, 'service.accessDenied.invalidJwt');
  });

  it('allows exactly service/cnt = 3 of 10 concurrent uses', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], maxUses: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => use(token)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.json()).toMatchObject({
        errCode: 'service.accessDenied.invalidJwt',
        reason: 'The token has no uses remaining.',
      });
    }
    const row = h.svc.db.prepare('SELECT uses_remaining, times_authorized FROM tokens').get();
    expect(row).toEqual({ uses_remaining: 0, times_authorized: 3 });
  });

  it('does not spend a use on a request refused before authentication completes', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], maxUses: 1 });
    await expectRefused(token, 'service.notFound.app', { 'service-client-key': 'SomeOtherKey0000000000' });
    expect((await use(token)).statusCode).toBe(200);
  });
});

describe('app and key', () => {
  it('accepts Service-Client-Key equal to the token app, refuses any other with the key-mismatch fault', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    expect((await use(token, { 'service-client-key': app.key })).statusCode).toBe(200);
    const { app: other } = await h.svc.apps.create(app.orgId, 'session', { label: 'other' }, h.svc.nowIso());
    const res = await expectRefused(token, 'service.notFound.app', { 'service-client-key': other.key });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('Invalid application client api key (token/key mismatch)');
  });

  it('dies with the key pair: regenerating the RSA pair invalidates every token', async () => {
    const ephemeral = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    const permanent = await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true });
    await h.svc.apps.regenerateRsa(app, h.svc.nowIso());
    await expectRefused(ephemeral, 'service.accessDenied.invalidJwt');
    await expectRefused(permanent, 'service.accessDenied.invalidJwt');
    expect((await use(await mint(admin, aliceId, { app: app.key, scope: ['*'] }))).statusCode).toBe(200);
  });

  it('dies with a flipped current flag even without the rotate method (only the current key verifies)', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    h.svc.db.prepare('UPDATE app_keys SET current = 0 WHERE app_id = ?').run(app.id);
    // A write on the service's own connection behind the repositories' back must say so, as they do
    // (another process's writes are seen through SQLite's data_version).
    h.svc.versions.bump();
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it('dies with its app: deleted or disabled apps are refused', async () => {
    const { app: extra } = await h.svc.apps.create(app.orgId, 'session', { label: 'extra' }, h.svc.nowIso());
    const token = await mint(admin, aliceId, { app: extra.key, scope: ['*'] });
    expect((await use(token)).statusCode).toBe(200);
    h.svc.apps.update(extra, { enabled: false });
    await expectRefused(token, 'service.accessDenied.invalidJwtApp');
    h.svc.apps.remove(extra);
    await expectRefused(token, 'service.accessDenied.invalidJwtApp');
  });

  it('dies with its subject', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    expect((await admin.delete(`/accounts/${aliceId}`)).statusCode).toBe(200);
    await expectRefused(token, 'service.accessDenied.invalidJwt');
  });

  it('signs RS512 for an app that pins it, and refuses PS512 for that app', async () => {
    const { app: rs } = await h.svc.apps.create(app.orgId, 'session', { label: 'rs', alg: 'RS512' }, h.svc.nowIso());
    const token = await mint(admin, aliceId, { app: rs.key, scope: ['*'] });
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'RS512' });
    expect((await use(token)).statusCode).toBe(200);
    app = rs;
    await expectRefused(await signWithAppKey(claims({ iss: rs.key }), {}, 'PS512'), 'service.accessDenied.invalidJwt');
  });

  it('verifies with a stock jose local JWKS built from the app public key and its kid', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'] });
    const key = currentAppKey(h.svc.apps, app.id)!;
    const jwk = { ...(await exportJWK(createPublicKey(key.publicPem))), kid: key.kid, alg: key.alg, use: 'sig' };
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet({ keys: [jwk] }), {
      audience: 'http://127.0.0.1:7788/demo/v2', // the base URL as called, port included
      issuer: app.key,
      currentDate: new Date(h.clock.now()),
    });
    expect(protectedHeader).toEqual({ alg: 'PS512', kid: key.kid, typ: 'JWT' });
    expect(payload).toMatchObject({ sub: aliceId, iat: T, exp: T + app.settings.authDuration, 'service/scp': ['*'] });
  });
});
