/**
 * The gateway against two real services listening on 127.0.0.1: "local" (this app's own) and
 * "remote" (another instance), each built with the service factory. Requests go over real HTTP,
 * as the desktop window's would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../src-shared/contracts/http.js';
import type { AddressInfo } from 'node:net';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../service/testing/harness.js';
import { createUser } from '../service/testing/token-testing.js';
import { signRequest } from '../service/auth/signatures/signature.js';
import { createGateway, GATEWAY_KEY_HEADER, type Gateway } from './gateway.js';

let local: Harness;
let remote: Harness;
let remoteOrigin: string;
let gateway: Gateway;
let gatewayOrigin: string;
const key = randomBytes(32).toString('hex');
const logLines: string[] = [];

async function listen(h: Harness): Promise<string> {
  await h.server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.server.server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  local = await createHarness();
  remote = await createHarness();
  const localOrigin = await listen(local);
  remoteOrigin = await listen(remote);
  logLines.length = 0;
  gateway = createGateway({ localOrigin, key, now: () => remote.clock.now(), log: (line) => logLines.push(line) });
  gatewayOrigin = await gateway.listen();
});
afterEach(async () => {
  await gateway.close();
  await local.close();
  await remote.close();
});

/** A request as the desktop window sends it: the shell's key header, the page's cookies if any. */
function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { [GATEWAY_KEY_HEADER]: key, accept: 'application/json', ...init.headers };
  const request: RequestInit = { method: init.method ?? 'GET', headers };
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    request.body = JSON.stringify(init.body);
  }
  return fetch(gatewayOrigin + path, request);
}

async function allText(response: Response): Promise<string> {
  return [...response.headers].map(([n, v]) => `${n}: ${v}`).join('\n') + '\n' + (await response.text());
}

/** Alice on the remote, and a token for her minted at the remote's own address (the audience names host and port). */
async function remoteUserToken(): Promise<{ aliceId: string; token: string }> {
  const admin = new TestClient(remote);
  await admin.login();
  const aliceId = await createUser(admin, 'alice@example.test');
  const minted = await admin.post(
    `/accounts/${aliceId}/tokens`,
    { app: remote.consoleAppKey, scope: ['object.read.account'] },
    { host: new URL(remoteOrigin).host },
  );
  const token = minted.json().data as string;
  expect(token.split('.')).toHaveLength(3);
  return { aliceId, token };
}

/** A signing app of the remote whose principal is its administrator. */
async function remoteSigningApp() {
  const orgId = remote.svc.orgs.byCode('demo')!.id;
  const adminId = remote.svc.credentials.byEmail(orgId, ADMIN_EMAIL)!.account_id;
  const { app, secret } = await remote.svc.apps.create(
    orgId,
    'signing',
    { label: 'backend', principalId: adminId },
    remote.svc.nowIso(),
  );
  return { appKey: app.key, secret: secret!, adminId };
}

describe('who may use the gateway', () => {
  it('refuses a request without the shell key, so a page in another browser cannot borrow credentials', async () => {
    const response = await fetch(`${gatewayOrigin}/_service/info`);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.gateway' });
  });

  it('refuses a wrong key of the same length', async () => {
    const response = await send('/_service/info', { headers: { [GATEWAY_KEY_HEADER]: 'x'.repeat(key.length) } });
    expect(response.status).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${gatewayOrigin}/_service/info`, {
        headers: { host: 'evil.example:80', [GATEWAY_KEY_HEADER]: key },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('the local connection', () => {
  it('forwards to the local service and passes its session cookie to the browser', async () => {
    const login = await send(`/demo/v2/accounts/login`, {
      method: 'POST',
      headers: { 'service-client-key': local.consoleAppKey },
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('service.sid='))).toBe(true);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const me = await send('/demo/v2/accounts/me', { headers: { 'service-client-key': local.consoleAppKey, cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(ADMIN_EMAIL);
  });
});

describe('a remote session connection', () => {
  beforeEach(() => gateway.setTarget({ kind: 'session', origin: remoteOrigin }));

  it('logs in through the gateway; the remote cookie stays in the gateway and the session works', async () => {
    const login = await send(`/demo/v2/accounts/login`, {
      method: 'POST',
      headers: { 'service-client-key': remote.consoleAppKey, cookie: 'service.sid=the-local-session' },
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()).toEqual([]);
    const csrf = login.headers.get('service-csrf-token');
    expect(csrf).toBeTruthy();

    const me = await send('/demo/v2/accounts/me', { headers: { 'service-client-key': remote.consoleAppKey } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(ADMIN_EMAIL);

    // A mutation with the CSRF token the console got back, then the session is gone.
    const logout = await send('/demo/v2/accounts/me/logout', {
      method: 'POST',
      headers: { 'service-client-key': remote.consoleAppKey, 'service-csrf-token': csrf! },
      body: {},
    });
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie()).toEqual([]);
    const after = await send('/demo/v2/accounts/status', { headers: { 'service-client-key': remote.consoleAppKey } });
    expect(((await after.json()) as { data: { loggedin: boolean } }).data.loggedin).toBe(false);
  });

  it('never sends the local session cookie to the remote', async () => {
    const admin = new TestClient(local);
    const login = await admin.login();
    const localSid = login.cookies.find((c) => c.name === 'service.sid')!.value;
    const status = await send('/demo/v2/accounts/status', {
      headers: { 'service-client-key': remote.consoleAppKey, cookie: `service.sid=${localSid}` },
    });
    expect(((await status.json()) as { data: { loggedin: boolean } }).data.loggedin).toBe(false);
  });

  it('still serves the console assets from the local service', async () => {
    gateway.setTarget({ kind: 'session', origin: 'http://127.0.0.1:9' });
    const info = await send('/_service/info');
    expect(info.status).toBe(502);
    expect(await info.json()).toMatchObject({ object: 'fault', errCode: 'service.error.gateway', status: 502 });
    // /console/ is the local service's (404 here: the harness serves no console), not a 502.
    expect((await send('/console/')).status).not.toBe(502);
  });
});

describe('a remote token connection', () => {
  it('reads with the bearer token; the token is in no answer and no log line', async () => {
    const { aliceId, token } = await remoteUserToken();
    gateway.setTarget({ kind: 'token', origin: remoteOrigin, token });

    const list = await send('/demo/v2/accounts', { headers: { 'service-client-key': remote.consoleAppKey } });
    const text = await allText(list);
    expect(list.status, text).toBe(200);
    expect(text).toContain(aliceId);
    expect(text).not.toContain(token);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(token);
  });
});

describe('a remote signing connection', () => {
  it('signs a v2 read with a query; the secret is in no answer and no log line', async () => {
    const { appKey, secret } = await remoteSigningApp();
    gateway.setTarget({ kind: 'signing', origin: remoteOrigin, appKey, secret });
    const me = await send('/demo/v2/accounts/me?paths=email&paths=name');
    const text = await allText(me);
    expect(me.status, text).toBe(200);
    expect(text).toContain(ADMIN_EMAIL);
    expect(text).not.toContain(secret);
    expect(logLines.join('\n')).not.toContain(secret);
  });

  it('signs a write with its body (the v2 body digest)', async () => {
    const { appKey, secret } = await remoteSigningApp();
    gateway.setTarget({ kind: 'signing', origin: remoteOrigin, appKey, secret });
    const created = await send('/demo/v2/accounts', {
      method: 'POST',
      body: { email: 'bob@example.test', password: 'a long user password', name: { first: 'Bob', last: 'B' } },
    });
    expect(created.status, await created.clone().text()).toBe(200);
    expect(((await created.json()) as { email: string }).email).toBe('bob@example.test');
  });

  it('is refused by the remote with a wrong secret (the signature is really checked)', async () => {
    const { appKey } = await remoteSigningApp();
    gateway.setTarget({ kind: 'signing', origin: remoteOrigin, appKey, secret: 'f'.repeat(64) });
    const me = await send('/demo/v2/accounts/me');
    expect(me.status).toBe(403);
    expect(((await me.json()) as { errCode: string }).errCode).toBe('service.accessDenied.invalidRequestSignature');
  });

  it('signs parallel requests with distinct nonces (no replay refusals)', async () => {
    const { appKey, secret } = await remoteSigningApp();
    gateway.setTarget({ kind: 'signing', origin: remoteOrigin, appKey, secret });
    const answers = await Promise.all(Array.from({ length: 8 }, () => send('/demo/v2/accounts/me')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  });
});

describe("a page's own credentials through a remote connection", () => {
  it("forwards the page's own Bearer token untouched: the answer is the token's account, not the connection's", async () => {
    const { aliceId, token: aliceToken } = await remoteUserToken();
    const { appKey, secret, adminId } = await remoteSigningApp();
    // The connection signs as the administrator; the token lab's "Try it" sends Alice's token.
    gateway.setTarget({ kind: 'signing', origin: remoteOrigin, appKey, secret });
    const asConnection = await send('/demo/v2/accounts/me');
    expect(((await asConnection.json()) as { _id: string })._id).toBe(adminId);
    const asToken = await send('/demo/v2/accounts/me', { headers: { authorization: `Bearer ${aliceToken}` } });
    expect(asToken.status, await asToken.clone().text()).toBe(200);
    expect(((await asToken.json()) as { _id: string })._id).toBe(aliceId);
  });

  it("forwards the page's own signature untouched: not re-signed, not given the connection's token", async () => {
    const { aliceId, token } = await remoteUserToken();
    const { appKey, secret, adminId } = await remoteSigningApp();
    gateway.setTarget({ kind: 'token', origin: remoteOrigin, token });
    expect(((await (await send('/demo/v2/accounts/me')).json()) as { _id: string })._id).toBe(aliceId);
    // The signed requests screen signs itself (version 2) as the signing app's principal.
    const path = '/demo/v2/accounts/me';
    const timestampMs = remote.clock.now();
    const nonce = 'pagesownnonce001';
    const signed = await send(path, {
      headers: {
        [CLIENT_KEY_HEADER]: appKey,
        [SIGNATURE_HEADER]: signRequest({
          apiKey: appKey,
          apiSecret: secret,
          url: path,
          method: 'GET',
          timestampMs,
          version: 2,
          nonce,
        }),
        [TIMESTAMP_HEADER]: String(timestampMs),
        [NONCE_HEADER]: nonce,
        [SIGNATURE_VERSION_HEADER]: '2',
      },
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect(((await signed.json()) as { _id: string })._id).toBe(adminId);
  });
});
