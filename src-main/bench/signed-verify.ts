/**
 * In-process micro-measurement of what a signed request costs per request (issue #14): the same
 * single-record read by session, by a warm PS512 bearer token, and by signed requests of version 1
 * and 2 (a fresh nonce, timestamp and HMAC per request, acting as the administrator through the
 * app's `principalId`). Variants alternate request by request, so a loaded machine's drift falls on
 * all alike; figures are µs per request through the server's dispatch (`injectAsClient`: direct
 * instance reads, then Fastify), signing included (a few µs).
 *
 * The replay store is filled with `--replay-fill` live nonces of the signing apps first (default
 * 20,000: what a few seconds of signed load leave in the 15-minute window), since what a signed
 * request pays for its replay check may grow with what the store already holds.
 *
 *   npm run build:main && node dist/main/bench/signed-verify.js [requests per variant, default 2000]
 *
 * With `--profile WAY` (session, token, signed-v1 or signed-v2), instead seeds 5,000 accounts and
 * runs only that way's requests (one-record reads and 100-record list pages, alternated) for a CPU
 * profile:
 *   node --cpu-prof --cpu-prof-dir DIR dist/main/bench/signed-verify.js --profile signed-v1 3000
 *   node dist/main/bench/profile-layers.js DIR/*.cpuprofile
 */
import { performance } from 'node:perf_hooks';
import { createHarness, injectAsClient, TestClient } from '../service/testing/harness.js';
import { seedOrg } from '../service/demo/seeder.js';
import { signRequest, SIGNATURE_WINDOW_MS } from '../service/auth/signatures/signature.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const profileWay = option('--profile');
const replayFill = Number(option('--replay-fill') ?? 20_000);
const n = Number(args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))[0] ?? 2000);

const h = await createHarness();
const admin = new TestClient(h);
await admin.login();
const me = (await admin.get('/accounts/me')).json() as { _id: string };
const tokenApp = (await admin.post('/apps', { kind: 'session', label: 'bench PS512', alg: 'PS512' })).json() as {
  key: string;
};
const minted = await admin.post(`/accounts/${me._id}/tokens`, { app: tokenApp.key, scope: ['*'], expiresIn: 86_400 });
const token = String(minted.json().data);

async function signingApp(label: string): Promise<{ key: string; secret: string; id: number }> {
  const res = await admin.post('/apps', { kind: 'signing', label, principalId: me._id });
  const app = res.json() as { key: string; secret: string };
  return { ...app, id: h.svc.apps.byKey(app.key)!.id };
}
const v1App = await signingApp('bench signed v1');
const v2App = await signingApp('bench signed v2');

const host = '127.0.0.1:7788';
let nonces = 0;
function signedRead(app: { key: string; secret: string }, version: 1 | 2, url: string) {
  const nonce = `b${(nonces++).toString(36).padStart(15, '0')}`;
  const timestampMs = h.clock.now();
  const signature = signRequest({
    apiKey: app.key,
    apiSecret: app.secret,
    url,
    method: 'GET',
    timestampMs,
    version,
    nonce,
  });
  return injectAsClient(h.server, {
    method: 'GET',
    url,
    headers: {
      host,
      'service-client-key': app.key,
      'service-client-signature': signature,
      'service-client-timestamp': String(timestampMs),
      'service-client-nonce': nonce,
      ...(version === 2 ? { 'service-client-signature-version': '2' } : {}),
    },
  });
}
const bearer = (url: string) =>
  injectAsClient(h.server, { method: 'GET', url, headers: { host, authorization: `Bearer ${token}` } });
const sessionRead = (url: string) => admin.get(url.slice(`/${h.org}/v2`.length));

const ways: Record<string, (url: string) => Promise<{ statusCode: number; body: string }>> = {
  session: sessionRead,
  token: bearer,
  'signed-v1': (url) => signedRead(v1App, 1, url),
  'signed-v2': (url) => signedRead(v2App, 2, url),
};

const one = `/${h.org}/v2/accounts/${me._id}`;
if (profileWay !== undefined) {
  const run = ways[profileWay];
  if (!run) throw new Error(`--profile: one of ${Object.keys(ways).join(', ')}`);
  await seedOrg(h.svc, h.svc.orgs.byCode(h.org)!, { accounts: 5000 });
  const list = `/${h.org}/v2/accounts?limit=100&sort=${encodeURIComponent('{"_id":1}')}`;
  for (let i = 0; i < n; i++) {
    const a = await run(one);
    const b = await run(list);
    if (a.statusCode !== 200 || b.statusCode !== 200)
      throw new Error(`profile: ${a.statusCode} ${b.statusCode} ${b.body}`);
  }
  await h.close();
  process.exit(0);
}

// Live nonces of other requests, as a busy window leaves them.
const now = h.clock.now();
for (const app of [v1App, v2App]) {
  h.svc.db.transaction(() => {
    for (let i = 0; i < replayFill; i++) {
      h.svc.replays.remember(app.id, `fill${i.toString(36).padStart(12, '0')}`, now, now + SIGNATURE_WINDOW_MS);
    }
  })();
}

const totals = new Map<string, number[]>(Object.keys(ways).map((k) => [k, []]));
for (let i = 0; i < n + 200; i++) {
  for (const [name, run] of Object.entries(ways)) {
    const start = performance.now();
    const res = await run(one);
    const took = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    if (i >= 200) totals.get(name)!.push(took); // the first 200 rounds warm up the JIT
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = median(totals.get('session')!);
console.log(
  `| way in | median µs | vs session | mean µs |  (${n} single-record reads each, alternated; ${replayFill} nonces pre-filled per signing app)`,
);
console.log('|---|---|---|---|');
for (const [name, xs] of totals) {
  const m = median(xs);
  const diff = (m - base) * 1000;
  console.log(
    `| ${name} | ${(m * 1000).toFixed(0)} | ${name === 'session' ? '' : `${diff >= 0 ? '+' : ''}${diff.toFixed(0)}`} | ${(mean(xs) * 1000).toFixed(0)} |`,
  );
}
await h.close();
