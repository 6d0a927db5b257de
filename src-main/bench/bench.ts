/**
 * `npm run bench`: seeds a temporary data dir (1,000,000 accounts by default), then measures the
 * five workloads over HTTP on loopback against the service and against the floor (hand-written SQL
 * behind a minimal handler, same file), and prints medians and the ratio to the floor. A
 * benchmark, not a test: it asserts only that both sides give the same answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { median, send } from './http-client.js';
import { floorUrls, serviceUrls } from './workloads.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '4' },
    walks: { type: 'string', default: '3' },
    'data-dir': { type: 'string' },
    only: { type: 'string' },
    password: { type: 'string' },
  },
});
/** Workloads to run (e.g. --only q4,q5); all by default. */
const ONLY = values.only ? new Set(values.only.split(',')) : undefined;
const ACCOUNTS = Number(values.accounts);
const ROUNDS = Number(values.rounds);
const ROUND_MS = Number(values.seconds) * 1000;
const CONCURRENCY = Number(values.concurrency);
const WALKS = Number(values.walks);
const PASSWORD = values.password ?? 'bench password 123';
const here = new URL('.', import.meta.url).pathname;
const cli = join(here, '..', 'cli.js');

function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

function runToEnd(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`seed failed: ${code}`)))),
  );
}

/** Resident memory of a child, from /proc (total, and anonymous = heap + native allocations). */
function rss(pid: number): { totalMb: number; anonMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { totalMb: kb('VmRSS') / 1024, anonMb: kb('RssAnon') / 1024 };
}

interface Target {
  name: string;
  port: number;
  headers: Record<string, string>;
  urls: typeof serviceUrls;
}

/** One autocannon round against a target: requests per second and median latency. */
async function round(t: Target, path: () => string, seconds: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${t.port}`,
    connections: CONCURRENCY,
    duration: seconds,
    requests: [{ method: 'GET', headers: t.headers, setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(`${t.name} ${path()}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50 };
}

/**
 * Throughput of one workload on the service and on the floor: autocannon (a lighter client than
 * node:http, so less of the two cores goes to the load generator), a short warm-up each, then
 * ROUNDS rounds that alternate between the two, so drift in the machine's speed (other tenants,
 * thermal state) falls on both sides alike; medians reported.
 */
async function throughputPair(a: Target, pathA: () => string, b: Target, pathB: () => string) {
  await round(a, pathA, 1);
  await round(b, pathB, 1);
  const ra: { rps: number; p50: number }[] = [];
  const rb: { rps: number; p50: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ra.push(await round(a, pathA, ROUND_MS / 1000));
    rb.push(await round(b, pathB, ROUND_MS / 1000));
  }
  const summary = (rs: { rps: number; p50: number }[]) => ({
    rps: median(rs.map((x) => x.rps)),
    p50: median(rs.map((x) => x.p50)),
  });
  return { service: summary(ra), floor: summary(rb) };
}

async function walk(t: Target): Promise<{ ms: number; records: number }> {
  const t0 = performance.now();
  let after: string | undefined;
  let records = 0;
  for (;;) {
    const res = await send(t.port, t.urls.q2(after), { headers: t.headers });
    const page = JSON.parse(res.body) as { data: { _id: string }[]; hasMore: boolean };
    records += page.data.length;
    if (!page.hasMore || page.data.length === 0) break;
    after = page.data[page.data.length - 1]!._id;
  }
  return { ms: performance.now() - t0, records };
}

const idsOf = (body: string) =>
  (JSON.parse(body) as { data?: { _id: string }[]; _id?: string }).data?.map((d) => d._id) ?? [
    (JSON.parse(body) as { _id: string })._id,
  ];

async function main() {
  const reuse = values['data-dir'] !== undefined && existsSync(join(values['data-dir'], 'service.db'));
  const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-'));
  let seedSeconds: number | undefined;
  if (reuse) {
    console.log(`Reusing the seeded data dir ${dataDir} (seeding not measured; admin password from --password).`);
  } else {
    console.log(`Seeding ${ACCOUNTS.toLocaleString('en-US')} accounts into ${dataDir} …`);
    const seedOut = await runToEnd([
      cli,
      'seed',
      '--data-dir',
      dataDir,
      '--accounts',
      String(ACCOUNTS),
      '--admin-password',
      PASSWORD,
    ]);
    seedSeconds = (JSON.parse(seedOut.trim().split('\n').pop()!) as { seconds: number }).seconds;
  }

  const svc = await startChild(
    [cli, 'serve', '--data-dir', dataDir, '--port', '0'],
    /Service:\s+http:\/\/127\.0\.0\.1:(\d+)\//,
  );
  const floor = await startChild(
    [join(here, 'floor.js'), join(dataDir, 'service.db'), 'o1_account'],
    /FLOOR_PORT=(\d+)/,
  );
  const peak = { totalMb: 0, anonMb: 0 };
  const sample = () => {
    const m = rss(svc.child.pid!);
    peak.totalMb = Math.max(peak.totalMb, m.totalMb);
    peak.anonMb = Math.max(peak.anonMb, m.anonMb);
    return m;
  };
  const sampler = setInterval(sample, 200);
  try {
    const port = Number(svc.match[1]);
    const info = JSON.parse((await send(port, '/_service/info')).body) as {
      data: { orgs: { consoleAppKey: string }[] };
    };
    const key = info.data.orgs[0]!.consoleAppKey;
    const login = await send(port, '/demo/v2/accounts/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-client-key': key },
      body: JSON.stringify({ email: 'admin@demo.example', password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.body}`);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const service: Target = {
      name: 'service',
      port,
      headers: { 'service-client-key': key, cookie },
      urls: Object.fromEntries(
        Object.entries(serviceUrls).map(([k, f]) => [k, (a?: string) => `/demo/v2${(f as (x?: string) => string)(a)}`]),
      ) as typeof serviceUrls,
    };
    const floorT: Target = { name: 'floor', port: Number(floor.match[1]), headers: {}, urls: floorUrls };
    const memoryBefore = sample();

    // Same answers on both sides, or the comparison means nothing.
    const firstPage = JSON.parse((await send(service.port, service.urls.q2(), { headers: service.headers })).body) as {
      data: { _id: string }[];
    };
    const sampleIds = firstPage.data.map((d) => d._id);
    for (const q of ['q1', 'q3', 'q4'] as const) {
      const a = idsOf((await send(service.port, service.urls[q](), { headers: service.headers })).body);
      const b = idsOf((await send(floorT.port, floorT.urls[q](), {})).body);
      if (JSON.stringify(a) !== JSON.stringify(b) || a.length === 0)
        throw new Error(`${q}: service and floor disagree`);
    }
    let i = 0;
    const nextId = () => sampleIds[(i = (i * 7919 + 1) % sampleIds.length)]!;

    const rows: { workload: string; service: string; floor: string; ratio: number; target: string }[] = [];
    for (const [q, label] of [
      ['q1', 'Q1 regex prefix /^s/i + sort name.last,name.first (limit 100)'],
      ['q3', 'Q3 created range $and/$gt/$lt, sort created desc (limit 100)'],
      ['q4', 'Q4 skip 300, sort name.last (limit 100)'],
      ['q5', 'Q5 single record by _id'],
    ] as const) {
      if (ONLY && !ONLY.has(q)) continue;
      const { service: s, floor: f } = await throughputPair(
        service,
        () => (q === 'q5' ? service.urls.q5(nextId()) : service.urls[q]()),
        floorT,
        () => (q === 'q5' ? floorT.urls.q5(nextId()) : floorT.urls[q]()),
      );
      rows.push({
        workload: label,
        service: `${s.rps.toFixed(0)} req/s, p50 ${s.p50.toFixed(2)} ms`,
        floor: `${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(2)} ms`,
        ratio: s.rps / f.rps,
        target: s.rps / f.rps >= 2 / 3 ? 'met (≥ 0.67)' : 'MISSED (< 0.67)',
      });
    }
    const sw: number[] = [];
    const fw: number[] = [];
    let walked = 0;
    for (let w = 0; w < (ONLY && !ONLY.has('q2') ? 0 : WALKS); w++) {
      const a = await walk(service);
      const b = await walk(floorT);
      if (a.records !== b.records) throw new Error(`walk: ${a.records} vs ${b.records} records`);
      walked = a.records;
      sw.push(a.ms);
      fw.push(b.ms);
    }
    const walkRatio = median(sw) / median(fw);
    if (sw.length > 0)
      rows.push({
        workload: `Q2 keyset walk of all ${walked.toLocaleString('en-US')} records, pages of 1000`,
        service: `${(median(sw) / 1000).toFixed(2)} s`,
        floor: `${(median(fw) / 1000).toFixed(2)} s`,
        ratio: median(fw) / median(sw),
        target:
          walkRatio <= 1.5
            ? `met (time ${walkRatio.toFixed(2)}× ≤ 1.5×)`
            : `MISSED (time ${walkRatio.toFixed(2)}× > 1.5×)`,
      });
    const memoryAfter = sample();

    if (seedSeconds !== undefined) {
      console.log(`\nSeeding ${ACCOUNTS.toLocaleString('en-US')} accounts: ${seedSeconds} s (target < 60 s)`);
    }
    console.log(
      `Concurrency ${CONCURRENCY}, ${ROUNDS} rounds of ${ROUND_MS / 1000} s (medians); walks: median of ${WALKS}.\n`,
    );
    console.log('| workload | service | floor | throughput ratio | target |');
    console.log('|---|---|---|---|---|');
    for (const r of rows)
      console.log(`| ${r.workload} | ${r.service} | ${r.floor} | ${r.ratio.toFixed(2)} | ${r.target} |`);
    console.log(
      `\nService memory (RSS): before ${memoryBefore.totalMb.toFixed(0)} MB, after ${memoryAfter.totalMb.toFixed(0)} MB, ` +
        `peak ${peak.totalMb.toFixed(0)} MB (anonymous peak ${peak.anonMb.toFixed(0)} MB; target < 300 MB)`,
    );
  } finally {
    clearInterval(sampler);
    svc.child.kill();
    floor.child.kill();
    if (!values['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exit(1);
});
