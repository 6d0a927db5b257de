import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createAccount } from '../accounts/accounts.js';
import { bootstrapOrg } from '../bootstrap.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { signRequest } from '../auth/signatures/signature.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

const org = () => h.svc.orgs.byCode('demo')!;

async function createApp(body: Record<string, unknown> = {}) {
  const res = await admin.post('/apps', { label: 'Integration', kind: 'signing', ...body });
  expect(res.statusCode).toBe(200);
  return res.json() as { key: string; secret: string; rsa: { kid: string } } & Record<string, unknown>;
}

function insertStoredToken(appKey: string, jti: string) {
  const app = h.svc.apps.byKey(appKey)!;
  h.svc.db
    .prepare('INSERT INTO tokens (jti, org_id, app_id, account_id, kid, created) VALUES (?, ?, ?, ?, ?, ?)')
    .run(jti, app.orgId, app.id, '0'.repeat(24), 'kid', 0);
}

describe('access', () => {
  it('is for org administrators only', async () => {
    await createAccount(h.svc, org(), { email: 'dev@example.test', password: 'a long password 1', state: 'verified' });
    const dev = new TestClient(h);
    await dev.login('dev@example.test', 'a long password 1');
    const res = await dev.get('/apps');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
    const anon = await new TestClient(h).get('/apps');
    expect(anon.json()).toMatchObject({ errCode: 'service.accessDenied.notLoggedIn' });
  });

  it('does not see apps of another org', async () => {
    const other = await bootstrapOrg(h.svc, {
      code: 'other',
      adminEmail: 'o@example.test',
      adminPassword: 'pw pw pw pw pw',
    });
    const res = await admin.get(`/apps/${other.consoleAppKey}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errCode: 'service.notFound.app' });
    const list = (await admin.get('/apps')).json() as { data: { key: string }[] };
    expect(list.data.map((a) => a.key)).not.toContain(other.consoleAppKey);
  });

  it('answers notFound.app for an unknown key', async () => {
    for (const res of [
      await admin.get('/apps/nope'),
      await admin.patch('/apps/nope', { label: 'x' }),
      await admin.delete('/apps/nope'),
      await admin.post('/apps/nope/secret'),
      await admin.post('/apps/nope/rsa'),
      await admin.get('/apps/nope/rotation-preview'),
    ]) {
      expect(res.json()).toMatchObject({ status: 404, errCode: 'service.notFound.app' });
    }
  });
});

describe('create and read', () => {
  it('shows a signing app secret in full once, masked afterwards, and never key material', async () => {
    const created = await createApp({ expose: true, authDuration: 120 });
    expect(created).toMatchObject({
      object: 'app',
      kind: 'signing',
      label: 'Integration',
      enabled: true,
      expose: true,
      authDuration: 120,
      csrf: true,
      maxTokensPerPrincipal: 10,
      alg: 'PS512',
      hasSecret: true,
      principalId: null,
    });
    expect(created.key).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(created.rsa.kid).toMatch(/^[\w-]{43}$/);

    const one = await admin.get(`/apps/${created.key}`);
    expect(one.json()).toMatchObject({ key: created.key, hasSecret: true, secret: `••••…${created.secret.slice(-4)}` });
    const list = await admin.get('/apps');
    expect(list.json()).toMatchObject({ object: 'list', hasMore: false });
    for (const body of [one.body, list.body]) {
      expect(body).not.toContain(created.secret);
      expect(body).not.toMatch(/PRIVATE KEY|private|"v1\./);
    }
  });

  it('creates a session app without a secret', async () => {
    const res = await admin.post('/apps', { label: 'Web', kind: 'session', csrf: false });
    expect(res.json()).toMatchObject({ kind: 'session', csrf: false, hasSecret: false, secret: null });
  });

  it('requires kind and label', async () => {
    const noKind = await admin.post('/apps', { label: 'x' });
    expect(noKind.json()).toMatchObject({ status: 400, errCode: 'service.validation.required', path: 'kind' });
    const badKind = await admin.post('/apps', { label: 'x', kind: 'jwt' });
    expect(badKind.json()).toMatchObject({ errCode: 'service.validation.required', path: 'kind' });
    const noLabel = await admin.post('/apps', { kind: 'session' });
    expect(noLabel.json()).toMatchObject({ errCode: 'service.validation.required', path: 'label' });
  });

  it('refuses invalid settings with one child fault per setting', async () => {
    const res = await admin.post('/apps', {
      kind: 'signing',
      label: '  ',
      authDuration: 59,
      maxTokensPerPrincipal: 101,
      csrf: 'yes',
      expires: 'tomorrow',
      alg: 'HS256',
      corsOrigins: ['https://ok.example', 'https://bad.example/path'],
      ipAllow: ['10.0.0.0/8', '10.0.0.0/33'],
      ipDeny: ['not-an-ip'],
      principalId: 'admin',
      secret: 'mine',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { errCode: string; faults: { path: string; errCode: string }[] };
    expect(body.errCode).toBe('service.validation');
    expect(body.faults.map((f) => f.path).sort()).toEqual(
      [
        'label',
        'authDuration',
        'maxTokensPerPrincipal',
        'csrf',
        'expires',
        'alg',
        'corsOrigins[1]',
        'ipAllow[1]',
        'ipDeny[0]',
        'principalId',
        'secret',
      ].sort(),
    );
    expect(body.faults.find((f) => f.path === 'secret')?.errCode).toBe('service.validation.unknownProperty');
    expect(body.faults.find((f) => f.path === 'authDuration')?.errCode).toBe('service.validation.outOfRange');
    expect(h.svc.apps.list(org().id)).toHaveLength(1);
  });

  it('refuses signing-only settings on a session app', async () => {
    const res = await admin.post('/apps', { kind: 'session', label: 'x', principalOverride: true });
    expect(res.json()).toMatchObject({
      faults: [{ path: 'principalOverride', errCode: 'service.validation.invalidValue' }],
    });
  });
});

describe('update', () => {
  it('applies every setting of docs/orgs-and-apps.md#applications', async () => {
    const { key } = await createApp();
    const admins = h.svc.credentials.byEmail(org().id, 'admin@example.test')!;
    const patch = {
      label: 'Renamed',
      readOnly: true,
      expires: '2030-01-01T00:00:00Z',
      authDuration: 86_400,
      csrf: false,
      allowUnsigned: true,
      principalOverride: true,
      principalId: admins.account_id,
      maxTokensPerPrincipal: 0,
      expose: true,
      alg: 'PS512',
      corsOrigins: ['https://app.example', 'http://localhost:3000'],
      ipAllow: ['192.168.0.0/16', '::1'],
      ipDeny: ['192.168.1.7'],
    };
    const res = await admin.patch(`/apps/${key}`, patch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...patch, expires: '2030-01-01T00:00:00.000Z' });
    expect((await admin.patch(`/apps/${key}`, { authDuration: 60, expires: null })).json()).toMatchObject({
      authDuration: 60,
      expires: null,
    });
    expect((await admin.patch(`/apps/${key}`, { authDuration: 86_401 })).json()).toMatchObject({
      faults: [{ path: 'authDuration', errCode: 'service.validation.outOfRange' }],
    });
  });

  it('refuses to change alg, which is pinned to the key pair', async () => {
    const { key } = await createApp();
    const res = await admin.patch(`/apps/${key}`, { alg: 'RS512' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ faults: [{ path: 'alg', reason: expect.stringMatching(/rsa/) as unknown }] });
    expect((await admin.get(`/apps/${key}`)).json()).toMatchObject({ alg: 'PS512', rsa: { alg: 'PS512' } });
  });

  it('disables an app: its key is refused', async () => {
    const { key } = await createApp({ kind: 'session' });
    expect((await new TestClient(h, key).get('/accounts/status')).statusCode).toBe(200);
    expect((await admin.patch(`/apps/${key}`, { enabled: false })).json()).toMatchObject({ enabled: false });
    const res = await new TestClient(h, key).get('/accounts/status');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.app' });
  });

  it('refuses a principalId that is a role or not an account', async () => {
    const { key } = await createApp();
    for (const principalId of [BUILTIN_ROLES.administrator, 'f'.repeat(24)]) {
      const res = await admin.patch(`/apps/${key}`, { principalId });
      expect(res.json()).toMatchObject({ status: 400, faults: [{ path: 'principalId' }] });
    }
  });

  it('keeps the console app usable: no disabling, no expiry, but other settings change', async () => {
    for (const patch of [{ enabled: false }, { expires: '2030-01-01T00:00:00Z' }]) {
      const res = await admin.patch(`/apps/${h.consoleAppKey}`, patch);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ errCode: 'service.conflict.consoleApp' });
    }
    expect((await admin.patch(`/apps/${h.consoleAppKey}`, { label: 'Console' })).json()).toMatchObject({
      label: 'Console',
      enabled: true,
    });
  });
});

describe('delete', () => {
  it('deletes an app with its keys; the console app cannot be deleted', async () => {
    const { key } = await createApp();
    const id = h.svc.apps.byKey(key)!.id;
    expect((await admin.delete(`/apps/${key}`)).json()).toEqual({ object: 'result', data: true });
    expect((await admin.get(`/apps/${key}`)).statusCode).toBe(404);
    expect(h.svc.db.prepare('SELECT count(*) AS n FROM app_keys WHERE app_id = ?').get(id)).toEqual({ n: 0 });
    const res = await admin.delete(`/apps/${h.consoleAppKey}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errCode: 'service.conflict.consoleApp' });
  });
});

describe('secret rotation', () => {
  it('returns a new secret once, for signing apps only', async () => {
    const created = await createApp();
    const res = await admin.post(`/apps/${created.key}/secret`);
    const rotated = res.json() as { secret: string };
    expect(rotated.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(h.svc.apps.secret(h.svc.apps.byKey(created.key)!)).toBe(rotated.secret);
    expect((await admin.get(`/apps/${created.key}`)).json()).toMatchObject({
      secret: `••••…${rotated.secret.slice(-4)}`,
    });
    const session = await admin.post(`/apps/${h.consoleAppKey}/secret`);
    expect(session.json()).toMatchObject({ status: 400, errCode: 'service.invalidArgument.app' });
  });
});

describe('rotation preview and RSA regeneration', () => {
  it('previews what rotation invalidates', async () => {
    const { key } = await createApp();
    insertStoredToken(key, 'a');
    insertStoredToken(key, 'b');
    h.svc.db.prepare("UPDATE tokens SET revoked = 1 WHERE jti = 'b'").run();
    expect((await admin.get(`/apps/${key}/rotation-preview`)).json()).toEqual({
      object: 'result',
      data: {
        secret: { applies: true, signedRequestsRefused: true, tokens: 0, sessions: 0 },
        rsa: { signedRequestsRefused: false, tokens: 1, ephemeralTokens: true, sessions: 0 },
      },
    });
    // A session app: no secret to rotate, and neither operation ends its sessions.
    expect((await admin.get(`/apps/${h.consoleAppKey}/rotation-preview`)).json()).toMatchObject({
      data: { secret: { applies: false, signedRequestsRefused: false }, rsa: { tokens: 0, sessions: 0 } },
    });
  });

  it('previews exactly what stops working: the secret breaks signatures only, the RSA pair tokens only (issue #13 item 20)', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const created = await createApp({ principalId: adminId });
    const minted = await admin.post(`/accounts/${adminId}/tokens`, { app: created.key, scope: ['*'], permanent: true });
    const token = String(minted.json().data);
    const viaToken = () =>
      h.server.inject({
        method: 'GET',
        url: '/demo/v2/accounts/me',
        // The Host the token was minted through: its aud is that base URL, port included.
        headers: { host: '127.0.0.1:7788', authorization: `Bearer ${token}` },
      });
    let nonce = 0;
    const viaSignature = (secret: string) => {
      const url = '/demo/v2/accounts/me';
      const ts = h.clock.now();
      return h.server.inject({
        method: 'GET',
        url,
        headers: {
          host: '127.0.0.1',
          'service-client-key': created.key,
          'service-client-signature': signRequest({
            apiKey: created.key,
            apiSecret: secret,
            url,
            method: 'GET',
            timestampMs: ts,
          }),
          'service-client-timestamp': String(ts),
          'service-client-nonce': `preview${String(++nonce).padStart(9, '0')}`,
        },
      });
    };
    const sessionBefore = (await admin.get('/accounts/me')).statusCode;
    expect([(await viaToken()).statusCode, (await viaSignature(created.secret)).statusCode, sessionBefore]).toEqual([
      200, 200, 200,
    ]);

    const preview = (await admin.get(`/apps/${created.key}/rotation-preview`)).json().data as {
      secret: { signedRequestsRefused: boolean; tokens: number; sessions: number };
      rsa: { signedRequestsRefused: boolean; tokens: number; sessions: number };
    };

    // Rotate the secret: signatures with the old secret stop; the token and the session do not.
    const rotated = (await admin.post(`/apps/${created.key}/secret`)).json() as { secret: string };
    expect((await viaSignature(created.secret)).statusCode !== 200).toBe(preview.secret.signedRequestsRefused);
    expect((await viaToken()).statusCode === 200).toBe(preview.secret.tokens === 0);
    expect((await admin.get('/accounts/me')).statusCode === 200).toBe(preview.secret.sessions === 0);

    // Regenerate the pair: the stored token stops (counted), signatures with the current secret do not.
    expect(preview.rsa.tokens).toBe(1);
    await admin.post(`/apps/${created.key}/rsa`, {});
    expect((await viaToken()).statusCode).not.toBe(200);
    expect((await viaSignature(rotated.secret)).statusCode === 200).toBe(!preview.rsa.signedRequestsRefused);
    expect((await admin.get('/accounts/me')).statusCode === 200).toBe(preview.rsa.sessions === 0);
  });

  it('regenerates the pair: new kid, old key retired, stored tokens revoked', async () => {
    const created = await createApp();
    insertStoredToken(created.key, 'a');
    const res = await admin.post(`/apps/${created.key}/rsa`, { alg: 'RS512' });
    expect(res.statusCode).toBe(200);
    const app = res.json() as { rsa: { kid: string; alg: string }; alg: string };
    expect(app.rsa.kid).not.toBe(created.rsa.kid);
    expect(app.rsa.alg).toBe('RS512');
    expect(app.alg).toBe('RS512');
    const id = h.svc.apps.byKey(created.key)!.id;
    expect(h.svc.db.prepare('SELECT kid, current FROM app_keys WHERE app_id = ? ORDER BY id').all(id)).toEqual([
      { kid: created.rsa.kid, current: 0 },
      { kid: app.rsa.kid, current: 1 },
    ]);
    expect(h.svc.apps.currentKey(id)?.kid).toBe(app.rsa.kid);
    expect(h.svc.apps.currentKey(id)?.privatePem).toMatch(/BEGIN PRIVATE KEY/);
    expect(res.body).not.toMatch(/PRIVATE/);
    expect((await admin.get(`/apps/${created.key}/rotation-preview`)).json()).toMatchObject({
      data: { rsa: { tokens: 0 } },
    });
  });

  it('accepts only an optional valid alg', async () => {
    const { key, rsa } = await createApp();
    // A client may send no body at all (no content-type).
    const login = await admin.login();
    const bare = await h.server.inject({
      method: 'POST',
      url: `/demo/v2/apps/${key}/rsa`,
      headers: {
        host: '127.0.0.1',
        'service-client-key': h.consoleAppKey,
        'service-csrf-token': admin.csrf!,
        cookie: login.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      },
    });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({ alg: 'PS512', rsa: { alg: 'PS512' } });
    expect((bare.json() as { rsa: { kid: string } }).rsa.kid).not.toBe(rsa.kid);
    expect((await admin.post(`/apps/${key}/rsa`, { alg: 'HS256' })).json()).toMatchObject({
      faults: [{ path: 'alg' }],
    });
    expect((await admin.post(`/apps/${key}/rsa`, [])).json()).toMatchObject({
      status: 400,
      reason: expect.stringMatching(/JSON object/) as unknown,
    });
    expect((await admin.post(`/apps/${key}/rsa`, { label: 'x' })).json()).toMatchObject({
      errCode: 'service.validation.unknownProperty',
      path: 'label',
    });
  });
});
