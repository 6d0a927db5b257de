/**
 * `npm run bench:scripts` (issue #16): 1,000 calls of the ad-hoc script runner, each a small script
 * doing a `find` of 10 records, against an in-process service (Fastify inject, so the figures are
 * the service's, not a network stack's). Reports runs/s, latency percentiles, and the process's
 * memory (RSS, which includes the sandbox's worker threads, and the main heap after a full
 * collection) after a warm-up and after the runs; fails when either grew by 10 % or more.
 *
 *   npm run bench:scripts [-- --runs 1000 --concurrency 4]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import { buildServer } from '../service/server.js';
import { sessionHeaders } from './in-process-session.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const RUNS = arg('runs', 1000);
const CONCURRENCY = arg('concurrency', 4);
// Enough runs for every worker's WebAssembly memory to reach its high-water mark (it never shrinks).
const WARMUP = arg('warmup', 300);
const EMAIL = 'bench@example.test';
const PASSWORD = 'a bench password that is long';

const SCRIPT = `return org.objects.c_conversations.find({ c_title: { $regex: '/^bench/' } }).limit(10).toArray().length`;

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
function memory() {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed) };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-scripts-'));
const svc = openService({ dataDir, masterKey: randomBytes(32) });
const { consoleAppKey } = await bootstrapOrg(svc, { code: 'bench', adminEmail: EMAIL, adminPassword: PASSWORD });
const server = await buildServer(svc);
const headers = await sessionHeaders(server, 'bench', consoleAppKey, EMAIL, PASSWORD);

for (let i = 0; i < 20; i++) {
  const res = await server.inject({
    method: 'POST',
    url: '/bench/v2/c_conversations',
    headers,
    payload: { c_title: `bench ${i}` },
  });
  if (res.statusCode !== 200) throw new Error(`seed failed: ${res.body}`);
}

async function call(): Promise<number> {
  const started = performance.now();
  const res = await server.inject({
    method: 'POST',
    url: '/bench/v2/sys/script_runner',
    headers,
    payload: { script: SCRIPT, language: 'javascript', specification: 'es6' },
  });
  const ms = performance.now() - started;
  if (res.statusCode !== 200 || (res.json() as { data?: unknown }).data !== 10)
    throw new Error(`run failed: ${res.statusCode} ${res.body}`);
  return ms;
}

async function runMany(n: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next++;
        times.push(await call());
      }
    }),
  );
  return times;
}

await runMany(WARMUP);
const before = memory();
const started = performance.now();
const times = await runMany(RUNS);
const seconds = (performance.now() - started) / 1000;
const after = memory();
times.sort((a, b) => a - b);
const pct = (p: number) =>
  Math.round((times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0) * 10) / 10;
const growth = (a: number, b: number) => Math.round(((b - a) / a) * 1000) / 10;
const report = {
  runs: RUNS,
  concurrency: CONCURRENCY,
  runsPerSecond: Math.round(RUNS / seconds),
  latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) },
  memoryBefore: before,
  memoryAfter: after,
  growthPercent: { rss: growth(before.rssMb, after.rssMb), heapUsed: growth(before.heapUsedMb, after.heapUsedMb) },
  gc: gc !== undefined,
  // The machine's load while measuring: on a shared machine the latencies scale with it.
  loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
};
console.log(JSON.stringify(report, null, 2));
await server.close();
svc.close();
rmSync(dataDir, { recursive: true, force: true });
if (report.growthPercent.rss >= 10 || report.growthPercent.heapUsed >= 10) {
  console.error('memory grew by 10 % or more');
  process.exitCode = 1;
}
