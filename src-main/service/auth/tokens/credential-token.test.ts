/**
 * A token handed over as a credential is verified as a bearer token is, synchronously: its
 * signature (PS512 and RS512), its app and key, its audience naming this org at any loopback
 * address, its times on the service clock, and its subject.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { mint } from '../../testing/token-testing.js';
import type { App } from '../../apps/apps.js';
import { currentAppKey } from './token-keys.js';
import { authenticateCredentialToken } from './credential-token.js';

let h: Harness;
let admin: TestClient;
let adminId: string;
let app: App;
const T = Date.parse('2026-01-15T12:00:00.000Z') / 1000;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  app = h.svc.apps.byKey(h.consoleAppKey)!;
});
afterEach(async () => h.close());

const demo = () => h.svc.orgs.byCode('demo')!;
const verify = (token: string) => authenticateCredentialToken(h.svc, demo(), token);

async function signed(payload: JWTPayload, alg = 'PS512', signer: App = app) {
  const key = currentAppKey(h.svc.apps, signer.id)!;
  return new SignJWT(payload)
    .setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' })
    .sign(await importPKCS8(h.svc.apps.currentKey(signer.id)!.privatePem, alg));
}

const claims = (extra: JWTPayload = {}): JWTPayload => ({
  iss: app.key,
  sub: adminId,
  aud: 'http://127.0.0.1:7788/demo/v2',
  iat: T,
  exp: T + 600,
  'service/scp': ['deployment.execute'],
  ...extra,
});

describe('authenticateCredentialToken', () => {
  it('accepts a token minted by the org, as its subject with its scopes', async () => {
    const auth = verify(await mint(admin, adminId, { app: app.key, scope: ['deployment.execute'] }));
    expect(auth.principal?.accountId).toBe(adminId);
    expect(auth.scopes).toContain('deployment.execute');
  });

  it('verifies RS512 for an app that pins it, and refuses a forged or altered signature', async () => {
    const { app: rs } = await h.svc.apps.create(app.orgId, 'session', { label: 'rs', alg: 'RS512' }, h.svc.nowIso());
    expect(verify(await signed(claims({ iss: rs.key }), 'RS512', rs)).principal?.accountId).toBe(adminId);
    const good = await signed(claims());
    const [head, body, sig] = good.split('.');
    const otherBody = Buffer.from(JSON.stringify(claims({ sub: '0'.repeat(24) }))).toString('base64url');
    expect(() => verify(`${head}.${otherBody}.${sig}`)).toThrow('signature is not valid');
    const flipped = sig!.slice(0, 10) + (sig![10] === 'A' ? 'B' : 'A') + sig!.slice(11);
    expect(() => verify(`${head}.${body}.${flipped}`)).toThrow('signature is not valid');
    const hs = Buffer.from(
      JSON.stringify({ alg: 'HS256', kid: currentAppKey(h.svc.apps, app.id)!.kid, typ: 'JWT' }),
    ).toString('base64url');
    const mac = createHmac('sha256', 'x').update(`${hs}.${body}`).digest('base64url');
    expect(() => verify(`${hs}.${body}.${mac}`)).toThrow('algorithm must be PS512');
  });

  it('takes the org’s base URL at any loopback address as the audience, and no other org’s', async () => {
    for (const aud of ['http://127.0.0.1:9999/demo/v2', 'http://localhost/demo/v2', 'http://127.0.0.1/demo/v2']) {
      expect(verify(await signed(claims({ aud }))).principal?.accountId, aud).toBe(adminId);
    }
    for (const aud of [
      'http://127.0.0.1:7788/other/v2',
      'http://evil.test/demo/v2',
      'http://127.0.0.1:7788/demo/v2/x',
    ]) {
      const token = await signed(claims({ aud }));
      expect(() => verify(token), aud).toThrow('aud claim is not valid');
    }
  });

  it('refuses an expired, a not yet valid, and a subject-less token on the service clock', async () => {
    const expired = await signed(claims({ exp: T }));
    expect(() => verify(expired)).toThrow('expired');
    const early = await signed(claims({ nbf: T + 60 }));
    expect(() => verify(early)).toThrow('not valid yet');
    const subjectless = await signed(claims({ sub: undefined }));
    expect(() => verify(subjectless)).toThrow('sub or iat');
  });
});
