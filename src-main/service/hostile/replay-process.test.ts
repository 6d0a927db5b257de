/**
 * The replay guarantee of signed requests held by a real service process (docs/signing.md, issue
 * #14): identical signed requests sent in parallel pass exactly once; nonces answered just before
 * a SIGKILL are still refused after the restart (the journal reached the OS before each answer);
 * and a second service on the same data dir refuses signed requests, whose replays it could not
 * see, until the first one stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCliBundle, startServiceProcess, type ServiceProcess } from './service-process.js';
import { ADMIN, loginOverHttp } from './http-session.js';
import { signRequest } from '../auth/signatures/signature.js';

let cli: string;
let dataDir: string;
const running: ServiceProcess[] = [];
let app: { key: string; secret: string };

async function start(extra: string[] = []): Promise<ServiceProcess> {
  const p = await startServiceProcess(cli, dataDir, extra);
  running.push(p);
  return p;
}

beforeAll(async () => {
  cli = await currentCliBundle();
  dataDir = mkdtempSync(join(tmpdir(), 'replay-process-'));
  const first = await start(['--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
  const admin = await loginOverHttp(first.base);
  const me = (await (await admin.get('/accounts/me')).json()) as { _id: string };
  const created = await admin.post('/apps', { kind: 'signing', label: 'backend', principalId: me._id });
  expect(created.status).toBe(200);
  app = (await created.json()) as { key: string; secret: string };
  await first.stop();
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

interface SignedCall {
  nonce: string;
  timestamp: number;
}

const call = (): SignedCall => ({ nonce: randomBytes(8).toString('hex'), timestamp: Date.now() });

/** Sends one signed (version 2) read; the same `SignedCall` sent twice is a replay. */
function send(base: string, c: SignedCall): Promise<Response> {
  const url = '/demo/v2/accounts/me';
  const signature = signRequest({
    apiKey: app.key,
    apiSecret: app.secret,
    url,
    method: 'GET',
    timestampMs: c.timestamp,
    nonce: c.nonce,
    version: 2,
  });
  return fetch(`${base}${url}`, {
    headers: {
      'service-client-key': app.key,
      'service-client-signature': signature,
      'service-client-timestamp': String(c.timestamp),
      'service-client-nonce': c.nonce,
      'service-client-signature-version': '2',
    },
  });
}

describe('signed requests against a service process', () => {
  it('passes one of 16 identical requests sent in parallel, refusing the rest as replays', async () => {
    const p = await start();
    const same = call();
    const answers = await Promise.all(Array.from({ length: 16 }, () => send(p.base, same)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(15).fill(403)]);
    const refused = await Promise.all(answers.filter((r) => r.status === 403).map((r) => r.json()));
    for (const body of refused) expect(body).toMatchObject({ errCode: 'service.accessDenied.invalidRequestSignature' });
    await p.stop();
  }, 30_000);

  it('still refuses, after a SIGKILL and a restart, the nonces answered just before the kill', async () => {
    const p = await start();
    const calls = Array.from({ length: 40 }, call);
    const first = await Promise.all(calls.map((c) => send(p.base, c)));
    expect(first.map((r) => r.status)).toEqual(Array<number>(40).fill(200));
    await p.kill(); // no shutdown code runs
    const restarted = await start();
    const again = await Promise.all(calls.map((c) => send(restarted.base, c)));
    expect(again.map((r) => r.status)).toEqual(Array<number>(40).fill(403));
    expect(await again[0]!.json()).toMatchObject({ reason: expect.stringMatching(/already used/) });
    expect((await send(restarted.base, call())).status).toBe(200);
    await restarted.stop();
  }, 60_000);

  it('lets only the first service on a data dir answer signed requests, and the second take over when it stops', async () => {
    const first = await start();
    const second = await start();
    expect(second.output()).toMatch(/holds its replay journal: signed requests are refused here/);
    const accepted = call();
    expect((await send(first.base, accepted)).status).toBe(200);
    const refused = await send(second.base, call());
    expect(refused.status).toBe(500);
    expect(await refused.json()).toMatchObject({ errCode: 'service.error.replayJournal' });
    const session = await loginOverHttp(second.base); // everything else is served
    expect((await session.get('/accounts/me')).status).toBe(200);

    await first.stop();
    await new Promise((r) => setTimeout(r, 1100)); // the second tries again at most once a second
    expect((await send(second.base, accepted)).status).toBe(403); // the first one's nonce came along
    expect((await send(second.base, call())).status).toBe(200);
    await second.stop();
  }, 60_000);
});
