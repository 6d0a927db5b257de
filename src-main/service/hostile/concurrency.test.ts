/**
 * Concurrency over real HTTP, against TWO service processes on one data dir (two SQLite
 * connections, truly in parallel). The in-process versions (token-auth.test.ts: 3 of 10 uses;
 * tokens.test.ts: 15 concurrent creations; replay-store.test.ts: one journal holder) run on
 * one event loop, where better-sqlite3 serialises everything anyway; these prove the guarantees
 * hold when requests really race:
 *   - a token with service/cnt = k authenticates exactly k times;
 *   - a signed request (nonce + signature) is accepted exactly once, however often it is replayed
 *     (the first process holds the replay journal; the second refuses signed requests outright);
 *   - no account ever holds more than maxTokensPerPrincipal stored tokens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/signatures/signature.js';
import { currentCliBundle, startServiceProcess, type ServiceProcess } from './service-process.js';
import { ADMIN, loginOverHttp, withSession, type HttpSession } from './http-session.js';

let dataDir: string;
let a: ServiceProcess;
let b: ServiceProcess;
let onA: HttpSession;
let onB: HttpSession;
let adminId: string;

beforeAll(async () => {
  const cli = await currentCliBundle();
  dataDir = mkdtempSync(join(tmpdir(), 'concurrency-'));
  a = await startServiceProcess(cli, dataDir, ['--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
  b = await startServiceProcess(cli, dataDir);
  onA = await loginOverHttp(a.base);
  onB = withSession(b.base, onA.appKey, onA.headers);
  adminId = ((await (await onA.get('/accounts/me')).json()) as { _id: string })._id;
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A GET with an explicit Host header (fetch may not set one). */
function getWithHost(
  url: string,
  host: string,
  token: string,
): Promise<{ status: number; body: { errCode?: string; reason?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { errCode?: string } }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Alternates requests between the two processes and fires them all at once. */
function race<T>(n: number, send: (target: HttpSession, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i % 2 ? onB : onA, i)));
}

describe('two processes, one data dir', () => {
  it('a token with service/cnt = 7 authenticates exactly 7 times out of 60 racing uses', async () => {
    const minted = await onA.post(`/accounts/${adminId}/tokens`, { app: onA.appKey, scope: ['*'], maxUses: 7 });
    expect(minted.status).toBe(200);
    const token = ((await minted.json()) as { data: string }).data;
    // The token's aud is A's base URL (port included, docs/tokens.md): B is reached under A's Host
    // header, as behind one address, so both processes accept the same token.
    const audienceHost = new URL(a.base).host;
    const results = await race(60, (t) => getWithHost(`${t.base}/demo/v2/accounts/me`, audienceHost, token));
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r).toMatchObject({ status: 403, body: { errCode: 'service.accessDenied.invalidJwt' } });
      expect(r.body.reason).toBe('The token has no uses remaining.');
    }
    const listed = (await (await onB.get(`/accounts/${adminId}/tokens?app=${onA.appKey}`)).json()) as {
      data: { uses_remaining: number }[];
    };
    // Used up, so no longer live: it is not listed any more.
    expect(listed.data.some((t) => t.uses_remaining === 0)).toBe(false);
  });

  it('accepts one signed request exactly once when 40 copies race, and one nonce once across signatures', async () => {
    const created = await onA.post('/apps', { label: 'racer', kind: 'signing', principalId: adminId });
    expect(created.status).toBe(200);
    const app = (await created.json()) as { key: string; secret: string };
    const signed = (timestampMs: number, nonce: string) => ({
      'service-client-key': app.key,
      'service-client-signature': signRequest({
        apiKey: app.key,
        apiSecret: app.secret,
        url: '/demo/v2/accounts/me',
        method: 'GET',
        timestampMs,
      }),
      'service-client-timestamp': String(timestampMs),
      'service-client-nonce': nonce,
    });
    const now = Date.now();
    const same = signed(now, 'racenonce0000001');
    const copies = await race(40, (t) =>
      fetch(`${t.base}/demo/v2/accounts/me`, { headers: same }).then((r) => r.status),
    );
    expect(copies.filter((s) => s === 200)).toHaveLength(1);
    // A's copies but one are replays; B, which does not hold the replay journal, refuses all of its.
    expect(copies.filter((s, i) => i % 2 === 0 && s === 403)).toHaveLength(19);
    expect(copies.filter((s, i) => i % 2 === 1 && s === 500)).toHaveLength(20);

    // The same nonce under 40 different (valid) signatures: still only one gets in.
    const variants = await race(40, (t, i) =>
      fetch(`${t.base}/demo/v2/accounts/me`, { headers: signed(now + 1 + i, 'racenonce0000002') }).then(
        (r) => r.status,
      ),
    );
    expect(variants.filter((s) => s === 200)).toHaveLength(1);
  });

  it('never lets an account hold more than 10 stored tokens when 40 creations race', async () => {
    const account = await onA.post('/accounts', {
      email: 'racer@example.test',
      password: 'a long user password',
      state: 'verified',
    });
    expect(account.status).toBe(200);
    const id = ((await account.json()) as { _id: string })._id;
    const results = await race(40, (t) =>
      t
        .post(`/accounts/${id}/tokens`, { app: onA.appKey, scope: ['object.read.account'], permanent: true })
        .then(async (r) => ({ status: r.status, body: (await r.json()) as { errCode?: string } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body.errCode).toBe('service.accessDenied.maxJwtPerSubject');
    }
    const listed = (await (await onB.get(`/accounts/${id}/tokens?app=${onA.appKey}`)).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(10);
  });
});
