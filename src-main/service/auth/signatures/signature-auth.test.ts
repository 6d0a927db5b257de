import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { openService } from '../../open-service.js';
import { buildServer } from '../../server.js';
import { bootstrapOrg } from '../../bootstrap.js';
import { ManualClock } from '../../clock.js';
import { createAccount } from '../../accounts/accounts.js';
import { BUILTIN_ROLES } from '../../objects/builtin-defs.js';
import type { AppSettings } from '../../apps/apps.js';
import type { FastifyInstance } from 'fastify';
import { signRequest } from './signature.js';
import type { NonceLog } from './nonce-log.js';

const WINDOW = 15 * 60_000;

interface Creds {
  key: string;
  secret: string;
}

interface SignedOpts {
  method?: 'GET' | 'POST';
  path?: string;
  /** Signature timestamp; default: the server's now. */
  ts?: number;
  nonce?: string;
  /** Overrides the computed signature. */
  signature?: string;
  /** Sign as if this were the method (to test mismatches). */
  signMethod?: string;
  headers?: Record<string, string>;
  /** Signature version; 2 also signs nonce, query and body and sends the version header. */
  version?: 1 | 2;
  /** JSON text sent as the body. */
  body?: string;
  /** Sign as if this were the URL (v2: another query) or the body. */
  signUrl?: string;
  signBody?: string;
  signNonce?: string;
}

let nonceCounter = 0;
const freshNonce = () => `n${String(++nonceCounter).padStart(15, '0')}`;

/** Sends a request signed with signature.ts, as a client would. */
async function signed(server: FastifyInstance, now: number, creds: Creds, opts: SignedOpts = {}) {
  const method = opts.method ?? 'GET';
  const url = `/demo/v2${opts.path ?? '/accounts/status'}`;
  const ts = opts.ts ?? now;
  const nonce = opts.nonce ?? freshNonce();
  const version = opts.version ?? 1;
  const signBody = opts.signBody ?? opts.body;
  const signature =
    opts.signature ??
    signRequest({
      apiKey: creds.key,
      apiSecret: creds.secret,
      url: opts.signUrl ?? url,
      method: opts.signMethod ?? method,
      timestampMs: ts,
      version,
      nonce: opts.signNonce ?? nonce,
      ...(signBody === undefined ? {} : { body: signBody }),
    });
  return server.inject({
    method,
    url,
    headers: {
      host: '127.0.0.1',
      'service-client-key': creds.key,
      'service-client-signature': signature,
      'service-client-timestamp': String(ts),
      'service-client-nonce': nonce,
      ...(version === 2 ? { 'service-client-signature-version': '2' } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.body === undefined ? {} : { payload: opts.body }),
  });
}

let h: Harness;
let orgId: number;
beforeEach(async () => {
  h = await createHarness();
  orgId = h.svc.orgs.byCode('demo')!.id;
});
afterEach(async () => h.close());

async function signingApp(settings: Partial<AppSettings> = {}, kind: 'signing' | 'session' = 'signing') {
  const { app, secret } = await h.svc.apps.create(orgId, kind, { label: 'backend', ...settings }, h.svc.nowIso());
  return { key: app.key, secret: secret ?? 'x'.repeat(64) };
}

const send = (creds: Creds, opts: SignedOpts = {}) => signed(h.server, h.clock.now(), creds, opts);
const adminId = () => h.svc.credentials.byEmail(orgId, ADMIN_EMAIL)!.account_id;

function expectFault(res: { statusCode: number; json(): unknown }, status: number, errCode: string, reason?: RegExp) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { errCode: string; reason?: string };
  expect(body.errCode).toBe(`service.${errCode}`);
  if (reason) expect(body.reason).toMatch(reason);
}

describe('when a signature is needed', () => {
  it('refuses an unsigned request to a signing app', async () => {
    const creds = await signingApp();
    const res = await h.server.inject({
      method: 'GET',
      url: '/demo/v2/accounts/status',
      headers: { host: '127.0.0.1', 'service-client-key': creds.key },
    });
    expectFault(res, 403, 'accessDenied.invalidRequestSignature', /requires signed requests/);
  });

  it('lets an unsigned request through as anonymous when the app allows it', async () => {
    const creds = await signingApp({ allowUnsigned: true, principalId: adminId() });
    const res = await h.server.inject({
      method: 'GET',
      url: '/demo/v2/accounts/status',
      headers: { host: '127.0.0.1', 'service-client-key': creds.key },
    });
    expect(res.json()).toEqual({ object: 'result', data: { loggedin: false } });
  });

  it('refuses a signature sent with a session app', async () => {
    const res = await send({ key: h.consoleAppKey, secret: 'x'.repeat(64) });
    expectFault(res, 403, 'accessDenied.invalidRequestSignature', /Only signing applications/);
  });

  it('refuses a signature for an unknown key', async () => {
    const res = await send({ key: 'A'.repeat(22), secret: 'x'.repeat(64) });
    expectFault(res, 404, 'notFound.app');
  });
});

describe('header shapes', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['a 63-char signature', { 'service-client-signature': 'a'.repeat(63) }, /64 hex/],
    ['a 65-char signature', { 'service-client-signature': 'a'.repeat(65) }, /64 hex/],
    ['a non-hex signature', { 'service-client-signature': 'g'.repeat(64) }, /64 hex/],
    ['a fractional timestamp', { 'service-client-timestamp': '1768478400000.5' }, /integer/],
    ['a negative timestamp', { 'service-client-timestamp': '-1' }, /integer/],
    ['a text timestamp', { 'service-client-timestamp': 'now' }, /integer/],
    ['a 15-char nonce', { 'service-client-nonce': 'a'.repeat(15) }, /16 letters/],
    ['a 17-char nonce', { 'service-client-nonce': 'a'.repeat(17) }, /16 letters/],
    ['a nonce with a dash', { 'service-client-nonce': 'abcdefgh-ijklmno' }, /16 letters/],
  ];
  it.each(cases)('refuses %s', async (_name, headers, reason) => {
    const res = await send(await signingApp(), { headers });
    expectFault(res, 403, 'accessDenied.invalidRequestSignature', reason);
  });

  it('refuses missing timestamp and nonce headers', async () => {
    const creds = await signingApp();
    const sig = signRequest({
      apiKey: creds.key,
      apiSecret: creds.secret,
      url: '/demo/v2/accounts/status',
      method: 'GET',
      timestampMs: h.clock.now(),
    });
    for (const drop of ['service-client-timestamp', 'service-client-nonce']) {
      const headers: Record<string, string> = {
        host: '127.0.0.1',
        'service-client-key': creds.key,
        'service-client-signature': sig,
        'service-client-timestamp': String(h.clock.now()),
        'service-client-nonce': freshNonce(),
      };
      delete headers[drop];
      const res = await h.server.inject({ method: 'GET', url: '/demo/v2/accounts/status', headers });
      expectFault(res, 403, 'accessDenied.invalidRequestSignature');
    }
  });
});

describe('odd requests', () => {
  it('refuses a header sent twice', async () => {
    const res = await send(await signingApp(), {
      headers: { 'service-client-nonce': ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'] as unknown as string },
    });
    expectFault(res, 403, 'accessDenied.invalidRequestSignature');
  });

  it('refuses a signing app whose secret is missing', async () => {
    const creds = await signingApp();
    h.svc.db.prepare('UPDATE apps SET secret_enc = NULL WHERE key = ?').run(creds.key);
    expectFault(await send(creds), 403, 'accessDenied.invalidRequestSignature', /no signing secret/);
  });
});

describe('timestamp window', () => {
  it('accepts exactly 15 minutes either way and refuses 1 ms more', async () => {
    const creds = await signingApp();
    const now = h.clock.now();
    expect((await send(creds, { ts: now - WINDOW })).statusCode).toBe(200);
    expect((await send(creds, { ts: now + WINDOW })).statusCode).toBe(200);
    expectFault(await send(creds, { ts: now - WINDOW - 1 }), 400, 'invalidArgument.staleRequestSignature');
    expectFault(await send(creds, { ts: now + WINDOW + 1 }), 400, 'invalidArgument.staleRequestSignature');
  });

  it('judges staleness by the service clock', async () => {
    const creds = await signingApp();
    const ts = h.clock.now();
    h.clock.advance(WINDOW + 1);
    expectFault(await send(creds, { ts }), 400, 'invalidArgument.staleRequestSignature', /Service-Server-Time/);
  });
});

describe('HMAC', () => {
  it('accepts a correct signature and records the app on the context', async () => {
    const creds = await signingApp({ principalId: adminId() });
    const res = await send(creds);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { loggedin: true, account: { email: ADMIN_EMAIL } } });
  });

  it('refuses a wrong secret, another path, another method and another timestamp', async () => {
    const creds = await signingApp();
    const now = h.clock.now();
    const sign = (over: Partial<Parameters<typeof signRequest>[0]>) =>
      signRequest({
        apiKey: creds.key,
        apiSecret: creds.secret,
        url: '/demo/v2/accounts/status',
        method: 'GET',
        timestampMs: now,
        ...over,
      });
    for (const signature of [
      sign({ apiSecret: creds.secret.slice(1) + 'x' }),
      sign({ url: '/demo/v2/accounts/me' }),
      sign({ method: 'POST' }),
      sign({ timestampMs: now - 1 }),
    ]) {
      expectFault(await send(creds, { signature }), 403, 'accessDenied.invalidRequestSignature', /does not match/);
    }
  });

  it('stops accepting the old secret once it is rotated', async () => {
    const creds = await signingApp();
    const app = h.svc.apps.byKey(creds.key)!;
    const secret = h.svc.apps.rotateSecret(app);
    expectFault(await send(creds), 403, 'accessDenied.invalidRequestSignature', /does not match/);
    expect((await send({ key: creds.key, secret })).statusCode).toBe(200);
  });

  it('ignores the query string, as the command excludes it', async () => {
    const creds = await signingApp();
    const now = h.clock.now();
    const signature = signRequest({
      apiKey: creds.key,
      apiSecret: creds.secret,
      url: '/demo/v2/accounts/status',
      method: 'GET',
      timestampMs: now,
    });
    expect((await send(creds, { path: '/accounts/status?x=1', signature })).statusCode).toBe(200);
  });
});

describe('replay', () => {
  it('refuses a reused nonce', async () => {
    const creds = await signingApp();
    const nonce = 'ABCDEFGH12345678';
    expect((await send(creds, { nonce })).statusCode).toBe(200);
    h.clock.advance(1); // a new timestamp, so a new signature: only the nonce repeats
    expectFault(await send(creds, { nonce }), 403, 'accessDenied.invalidRequestSignature', /nonce was already used/);
    expectFault(await send(creds, { nonce: nonce.toLowerCase() }), 403, 'accessDenied.invalidRequestSignature');
  });

  it('accepts two different requests to one path in one millisecond (same v1 signature, two nonces)', async () => {
    const creds = await signingApp();
    const now = h.clock.now();
    const signature = signRequest({
      apiKey: creds.key,
      apiSecret: creds.secret,
      url: '/demo/v2/accounts/status',
      method: 'GET',
      timestampMs: now,
    });
    expect((await send(creds, { signature, nonce: 'firstrequest0001' })).statusCode).toBe(200);
    expect((await send(creds, { signature, nonce: 'secondrequest001' })).statusCode).toBe(200);
    expect((await send(creds, { signature: signature.toUpperCase(), nonce: 'thirdrequest0001' })).statusCode).toBe(200);
  });

  it('answers with a 500 when the nonces of a turn cannot be written, and keeps those nonces spent', async () => {
    const creds = await signingApp();
    expect((await send(creds)).statusCode).toBe(200); // opens the journal
    const log = (h.svc.replays as unknown as { journalHandle: { log: NonceLog } }).journalHandle.log;
    const full = vi.spyOn(log, 'write').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }); // the next group write fails
    const nonces = ['failedcommit0001', 'failedcommit0002', 'failedcommit0003'];
    const answers = await Promise.all(nonces.map((nonce) => send(creds, { nonce })));
    for (const res of answers) {
      expect(res.statusCode).toBe(500);
      const body = res.json() as { object: string; errCode: string; status: number; reason?: string };
      expect(body).toMatchObject({ object: 'fault', errCode: 'service.error', status: 500 });
      expect(JSON.stringify(body)).not.toMatch(/nonces|ENOSPC|space/); // nothing of the journal leaks
    }
    expect(full).toHaveBeenCalledTimes(1); // the three nonces shared one write
    full.mockRestore();
    h.clock.advance(1); // new signatures; only the nonces repeat
    for (const nonce of nonces) {
      expectFault(await send(creds, { nonce }), 403, 'accessDenied.invalidRequestSignature', /already used/);
    }
    expect((await send(creds)).statusCode).toBe(200); // the journal takes new nonces again
  });

  /** A share this small is filled through the store itself (the real one is a million). */
  const SHARE = 300;
  const withSmallShare = async () => {
    await h.close();
    h = await createHarness({ replayLimits: { perApp: SHARE } });
    orgId = h.svc.orgs.byCode('demo')!.id;
  };
  const fill = (appId: number) => {
    const now = h.clock.now();
    for (let i = 0; i < SHARE; i++) {
      expect(h.svc.replays.remember(appId, `filler${String(i).padStart(10, '0')}`, now, now + WINDOW)).toBe('fresh');
    }
  };

  it("refuses an app's new signed requests when its share of the replay store is full", async () => {
    await withSmallShare();
    const creds = await signingApp();
    fill(h.svc.apps.byKey(creds.key)!.id);
    expectFault(await send(creds), 429, 'throttled.policy', /replay window/);
    h.clock.advance(WINDOW + 1); // the filler expires; a request signed now is fresh
    expect((await send(creds)).statusCode).toBe(200);
  });

  it("never throttles one app because another app's share is full", async () => {
    await withSmallShare();
    const busy = await signingApp();
    const quiet = await signingApp();
    fill(h.svc.apps.byKey(busy.key)!.id);
    expectFault(await send(busy), 429, 'throttled.policy');
    expect((await send(quiet)).statusCode).toBe(200);
  });

  it('remembers across a restart of the service on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sig-restart-'));
    const masterKey = randomBytes(32);
    const clock = new ManualClock(Date.parse('2026-01-15T12:00:00.000Z'));
    try {
      let svc = openService({ dataDir, clock, masterKey });
      const { org } = await bootstrapOrg(svc, {
        code: 'demo',
        adminEmail: ADMIN_EMAIL,
        adminPassword: 'pw pw pw pw pw',
      });
      const { app: created, secret } = await svc.apps.create(org.id, 'signing', { label: 'x' }, svc.nowIso());
      const creds = { key: created.key, secret: secret! };
      const opts = {
        nonce: 'restartnonce0001',
        signature: signRequest({
          apiKey: creds.key,
          apiSecret: creds.secret,
          url: '/demo/v2/accounts/status',
          method: 'GET',
          timestampMs: clock.now(),
        }),
      };
      let server = await buildServer(svc);
      expect((await signed(server, clock.now(), creds, opts)).statusCode).toBe(200);
      await server.close();
      svc.close();

      svc = openService({ dataDir, clock, masterKey });
      server = await buildServer(svc);
      const res = await signed(server, clock.now(), creds, opts);
      expectFault(res, 403, 'accessDenied.invalidRequestSignature', /already used/);
      await server.close();
      svc.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('version 2 (docs/signing.md)', () => {
  it('accepts a v2 GET with a query and a v2 POST with a body', async () => {
    const creds = await signingApp({ principalId: adminId() });
    const get = await send(creds, { version: 2, path: '/accounts/status?b=2&a=x+y&a=1' });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toMatchObject({ data: { loggedin: true } });
    // A signed POST whose body reaches the route: a wrong password is refused by the route, not by the signature.
    const post = await send(creds, {
      version: 2,
      method: 'POST',
      path: '/accounts/login',
      body: JSON.stringify({ email: ADMIN_EMAIL, password: 'not the password' }),
    });
    expect((post.json() as { errCode: string }).errCode).not.toMatch(/Signature/);
  });

  it('accepts a query signed in another order or encoding (the canonical query is what is signed)', async () => {
    const creds = await signingApp();
    const res = await send(creds, {
      version: 2,
      path: '/accounts/status?a=1&b=2&a=x%20y',
      signUrl: '/demo/v2/accounts/status?b=2&a=x+y&a=1',
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a captured v2 request replayed with a fresh nonce, another query or another body', async () => {
    const creds = await signingApp();
    const cases: SignedOpts[] = [
      { version: 2, signNonce: 'capturednonce001' },
      { version: 2, path: '/accounts/status?x=5', signUrl: '/demo/v2/accounts/status?x=1' },
      { version: 2, path: '/accounts/status', signUrl: '/demo/v2/accounts/status?x=1' },
      {
        version: 2,
        method: 'POST',
        path: '/accounts/login',
        body: '{"email":"b@x.y","password":"pw"}',
        signBody: '{"email":"a@x.y","password":"pw"}',
      },
      { version: 2, method: 'POST', path: '/accounts/login', body: '{"email":"a@x.y","password":"pw"}', signBody: '' },
    ];
    for (const opts of cases) {
      expectFault(await send(creds, opts), 403, 'accessDenied.invalidRequestSignature', /does not match/);
    }
  });

  it('refuses a v1 signature presented as v2 and an unknown version', async () => {
    const creds = await signingApp();
    const v1 = signRequest({
      apiKey: creds.key,
      apiSecret: creds.secret,
      url: '/demo/v2/accounts/status',
      method: 'GET',
      timestampMs: h.clock.now(),
    });
    expectFault(await send(creds, { version: 2, signature: v1 }), 403, 'accessDenied.invalidRequestSignature');
    expectFault(
      await send(creds, { headers: { 'service-client-signature-version': '3' } }),
      403,
      'accessDenied.invalidRequestSignature',
      /must be 1 or 2/,
    );
  });

  it('refuses version 1 when the app requires version 2, and accepts version 2', async () => {
    const creds = await signingApp({ requireSignatureV2: true });
    expectFault(await send(creds), 403, 'accessDenied.invalidRequestSignature', /requires version 2/);
    expect((await send(creds, { version: 2 })).statusCode).toBe(200);
  });

  it('refuses requireSignatureV2 on a session app', async () => {
    const admin = new TestClient(h);
    await admin.login();
    const res = await admin.post('/apps', { kind: 'session', label: 'x', requireSignatureV2: true });
    expect(res.json()).toMatchObject({ errCode: 'service.validation' });
    const ok = await admin.post('/apps', { kind: 'signing', label: 'y', requireSignatureV2: true });
    expect(ok.json()).toMatchObject({ requireSignatureV2: true });
  });
});

describe('principal', () => {
  it('is anonymous without principalId or override', async () => {
    const res = await send(await signingApp());
    expect(res.json()).toEqual({ object: 'result', data: { loggedin: false } });
  });

  it('is the app principalId account', async () => {
    const res = await send(await signingApp({ principalId: adminId() }), { path: '/accounts/me' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: adminId(), email: ADMIN_EMAIL });
  });

  it('honours Service-Client-Account by id or email when the app allows override', async () => {
    const org = h.svc.orgs.byCode('demo')!;
    const other = await createAccount(h.svc, org, { email: 'worker@example.test', password: 'a long password 1' });
    const creds = await signingApp({ principalOverride: true, principalId: adminId() });
    for (const account of [other._id, 'Worker@Example.test']) {
      h.clock.advance(1); // same request again: a new timestamp gives it a new signature
      const res = await send(creds, { path: '/accounts/me', headers: { 'service-client-account': account } });
      expect(res.json()).toMatchObject({ _id: other._id, email: 'worker@example.test' });
    }
    h.clock.advance(1);
    const fallback = await send(creds, { path: '/accounts/me' });
    expect(fallback.json()).toMatchObject({ _id: adminId() });
  });

  it('refuses overriding to a role, an unknown id, a non-account or a locked account', async () => {
    const org = h.svc.orgs.byCode('demo')!;
    const locked = await createAccount(h.svc, org, {
      email: 'locked@example.test',
      password: 'a long password 1',
      locked: true,
    });
    const creds = await signingApp({ principalOverride: true });
    for (const [account, reason] of [
      [BUILTIN_ROLES.administrator, /role/],
      ['f'.repeat(24), /account of this org/],
      ['nobody@example.test', /account of this org/],
      ['system', /account of this org/],
      [locked._id, /locked/],
    ] as const) {
      h.clock.advance(1);
      const res = await send(creds, { headers: { 'service-client-account': account } });
      expectFault(res, 403, 'accessDenied.principal', reason);
    }
  });

  it('refuses an override header when the app does not allow override', async () => {
    const creds = await signingApp({ principalId: adminId() });
    const res = await send(creds, { headers: { 'service-client-account': adminId() } });
    expectFault(res, 403, 'accessDenied.principal', /does not allow principal override/);
  });

  it('refuses when the app principalId no longer names an account', async () => {
    const creds = await signingApp({ principalId: 'e'.repeat(24) });
    expectFault(await send(creds), 403, 'accessDenied.principal');
  });
});
