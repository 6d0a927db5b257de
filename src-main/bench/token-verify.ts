/**
 * In-process micro-measurement of what a bearer token costs per request (issue #14 item 3): the
 * same single-record read by session, by a PS512 token answered from the verified-token cache
 * (warm), and by the same token with the cache emptied before each request (cold, the signature
 * checked every time, as before the cache). Variants alternate request by request, so a loaded
 * machine's drift falls on all alike; figures are µs per request through the server's dispatch
 * (`injectAsClient`: direct instance reads, then Fastify).
 *
 *   npm run build:main && node dist/main/bench/token-verify.js [requests per variant, default 2000]
 *
 * With `--profile`, instead seeds 5,000 accounts and runs only warm-token requests (one-record
 * reads and 100-record list pages, alternated) for a CPU profile:
 *   node --cpu-prof --cpu-prof-dir DIR dist/main/bench/token-verify.js --profile 3000
 *   node dist/main/bench/profile-layers.js DIR/*.cpuprofile
 */
import { performance } from 'node:perf_hooks';
import { createHarness, injectAsClient, TestClient } from '../service/testing/harness.js';
import { tokenCache } from '../service/auth/tokens/token-auth.js';
import { seedOrg } from '../service/demo/seeder.js';

const profiling = process.argv.includes('--profile');
const n = Number(process.argv.filter((a) => !a.startsWith('--'))[2] ?? 2000);
const h = await createHarness();
const admin = new TestClient(h);
await admin.login();
const me = (await admin.get('/accounts/me')).json() as { _id: string };
const app = (await admin.post('/apps', { kind: 'session', label: 'bench PS512', alg: 'PS512' })).json() as {
  key: string;
};
const minted = await admin.post(`/accounts/${me._id}/tokens`, { app: app.key, scope: ['*'], expiresIn: 86_400 });
const token = String(minted.json().data);
const url = `/${h.org}/v2/accounts/${me._id}`;
const bearer = () =>
  injectAsClient(h.server, {
    method: 'GET',
    url,
    headers: { host: '127.0.0.1:7788', authorization: `Bearer ${token}` },
  });

if (profiling) {
  await seedOrg(h.svc, h.svc.orgs.byCode(h.org)!, { accounts: 5000 });
  const list = `/${h.org}/v2/accounts?limit=100&sort=${encodeURIComponent('{"_id":1}')}`;
  const headers = { host: '127.0.0.1:7788', authorization: `Bearer ${token}` };
  for (let i = 0; i < n; i++) {
    const one = await bearer();
    const page = await injectAsClient(h.server, { method: 'GET', url: list, headers });
    if (one.statusCode !== 200 || page.statusCode !== 200) throw new Error(`profile: ${page.statusCode} ${page.body}`);
  }
  await h.close();
  process.exit(0);
}

const variants: Record<string, () => Promise<{ statusCode: number }>> = {
  session: () => admin.get(`/accounts/${me._id}`),
  'token-ps512 warm': bearer,
  'token-ps512 cold': () => {
    tokenCache(h.svc).clear();
    return bearer();
  },
};
const totals = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < n + 200; i++) {
  for (const [name, run] of Object.entries(variants)) {
    const start = performance.now();
    const res = await run();
    const took = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode}`);
    if (i >= 200) totals.get(name)!.push(took); // the first 200 rounds warm up the JIT
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`| variant | median µs | mean µs |  (${n} requests each, alternated)`);
console.log('|---|---|---|');
for (const [name, xs] of totals) {
  console.log(`| ${name} | ${(median(xs) * 1000).toFixed(0)} | ${(mean(xs) * 1000).toFixed(0)} |`);
}
await h.close();
