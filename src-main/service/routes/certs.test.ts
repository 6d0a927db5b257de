import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, createLocalJWKSet, jwtVerify, SignJWT, type JWK } from 'jose';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { bootstrapOrg } from '../bootstrap.js';
import { rsaThumbprint } from '../crypto/rsa.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const orgId = () => h.svc.orgs.byCode('demo')!.id;
const anonymous = () => new TestClient(h, '');

async function makeApp(label: string, settings: Record<string, unknown> = {}) {
  const { app } = await h.svc.apps.create(orgId(), 'signing', { label, ...settings }, h.svc.nowIso());
  return app;
}

describe('GET /auth/certs/jwk', () => {
  it('lists exactly the exposed, enabled apps, with RFC 7638 kids and no private members', async () => {
    const shown = await makeApp('shown', { expose: true });
    const rs = await makeApp('rs512', { expose: true, alg: 'RS512' });
    await makeApp('hidden');
    await makeApp('disabled', { expose: true, enabled: false });
    const res = await anonymous().get('/auth/certs/jwk');
    expect(res.statusCode).toBe(200);
    const { keys } = res.json() as { keys: (JWK & { kid: string })[] };
    const expectedKids = [shown, rs].map((a) => h.svc.apps.currentKeyInfo(a.id)!.kid);
    expect(keys.map((k) => k.kid)).toEqual(expectedKids);
    for (const jwk of keys) {
      expect(Object.keys(jwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      for (const m of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(m);
      expect(jwk).toMatchObject({ kty: 'RSA', use: 'sig', e: 'AQAB' });
      expect(await calculateJwkThumbprint(jwk)).toBe(jwk.kid);
    }
    expect(keys.map((k) => k.alg)).toEqual(['PS512', 'RS512']);
  });

  it('answers an empty set when nothing is exposed, and never lists another org’s keys', async () => {
    const other = await bootstrapOrg(h.svc, {
      code: 'other',
      adminEmail: 'o@example.test',
      adminPassword: 'pw pw pw pw pw',
    });
    await h.svc.apps.create(other.org.id, 'signing', { label: 'x', expose: true }, h.svc.nowIso());
    expect((await anonymous().get('/auth/certs/jwk')).json()).toEqual({ keys: [] });
    expect((await anonymous().get('/auth/certs/pem')).json()).toEqual({ keys: [] });
  });

  it('drops a rotated key at once and lists the new one', async () => {
    const app = await makeApp('shown', { expose: true });
    const old = h.svc.apps.currentKeyInfo(app.id)!.kid;
    const fresh = await h.svc.apps.regenerateRsa(app, h.svc.nowIso());
    const kids = ((await anonymous().get('/auth/certs/jwk')).json() as { keys: { kid: string }[] }).keys.map(
      (k) => k.kid,
    );
    expect(kids).toEqual([fresh.kid]);
    expect(kids).not.toContain(old);
  });

  it('verifies a token signed with the app’s current key through a stock local JWKS', async () => {
    const app = await makeApp('shown', { expose: true });
    const key = h.svc.apps.currentKey(app.id)!;
    const jwt = await new SignJWT({ sub: 'x' })
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .sign(createPrivateKey(key.privatePem));
    const jwks = createLocalJWKSet((await anonymous().get('/auth/certs/jwk')).json() as { keys: JWK[] });
    const { protectedHeader } = await jwtVerify(jwt, jwks);
    expect(protectedHeader.kid).toBe(key.kid);
  });
});

describe('GET /auth/certs/pem', () => {
  it('serves the same keys as public SPKI PEM', async () => {
    const app = await makeApp('shown', { expose: true });
    const res = await anonymous().get('/auth/certs/pem');
    expect(res.statusCode).toBe(200);
    const { keys } = res.json() as { keys: { kid: string; alg: string; key: string }[] };
    expect(keys).toHaveLength(1);
    const [entry] = keys;
    expect(Object.keys(entry!).sort()).toEqual(['alg', 'key', 'kid']);
    expect(entry!.kid).toBe(h.svc.apps.currentKeyInfo(app.id)!.kid);
    expect(entry!.alg).toBe('PS512');
    expect(entry!.key).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(res.body).not.toMatch(/PRIVATE/);
    expect(rsaThumbprint(entry!.key)).toBe(entry!.kid);
    expect(createPublicKey(entry!.key).asymmetricKeyType).toBe('rsa');
  });
});
