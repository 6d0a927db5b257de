/**
 * `npm run bench`: for each size (100,000 and 1,000,000 accounts by default) seeds a temporary
 * data dir, then measures the workloads over HTTP on loopback through every way into the service
 * (session, bearer tokens, signed requests: `ways-in.ts`) and against the floor (the best
 * hand-written answer on the same file: `floor.ts`), and prints one table per size: throughput and
 * walk-time ratios to the floor, single-connection p50 latency per way in, service memory and
 * seeding time. A benchmark, not a test: it asserts only that every side gives the same answers.
 *
 *   --sizes 100000,1000000   --ways session,token-ps512,token-rs512,signed-v1,signed-v2
 *   --queries q1,q2,q2p,q3,q4,q5   --rounds 5   --duration 2 (s per round)   --connections 4
 *   --walks 3   --data-dir DIR --password P (reuse a seeded dir; one size)
 *   --profile-dir DIR (a CPU profile of the service process, for profile-layers.js)
 * Quick run while developing: --sizes 20000 --duration 1 --rounds 2 --walks 1
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { median, send } from './http-client.js';
import { floorUrls, serviceUrls, WALK_PAGE } from './workloads.js';
import { adminSetup, wayIn, WAYS_IN, type Credentials } from './ways-in.js';
import { startChild } from './start-child.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    ways: { type: 'string', default: WAYS_IN.map((w) => w.name).join(',') },
    queries: { type: 'string', default: 'q1,q2,q2p,q3,q4,q5' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
    walks: { type: 'string', default: '3' },
    'data-dir': { type: 'string' },
    password: { type: 'string' },
    /** Writes a V8 CPU profile of the service process here (for `profile-layers.js`). */
    'profile-dir': { type: 'string' },
  },
});
const list = (s: string) => s.split(',').filter(Boolean);
const SIZES = list(values.sizes).map(Number);
const WAYS = list(values.ways).map(wayIn);
const QUERIES = new Set(list(values.queries));
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WALKS = Number(values.walks);
const PASSWORD = values.password ?? 'bench password 123';
const BASE = '/demo/v2';
const here = new URL('.', import.meta.url).pathname;
const cli = join(here, '..', 'cli.js');
if (values['data-dir'] && SIZES.length !== 1) throw new Error('--data-dir takes one size (--sizes N)');

/** Targets: the throughput ratio ≥ 0.67 of the floor, walk time ≤ 1.5×, token p50 ≤ session p50 + 20 µs. */
const TARGET = { throughput: 2 / 3, walk: 1.5, tokenExtraUs: 20, rssMb: 300, seedSeconds: 60 };

const progress = (text: string) =>
  process.stderr.isTTY ? process.stderr.write(`\r${text}\u001b[K`) : process.stderr.write(`${text}\n`);
const progressDone = () => process.stderr.isTTY && process.stderr.write('\r\u001b[K');

/** Runs a child to its end; its stderr (the seeder's progress lines) goes straight to ours. */
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

/** One side of a comparison: the floor, or the service through one way in. */
interface Target {
  name: string;
  port: number;
  /** URL of a workload on this side (`after`: Q2's cursor; `id`: Q5's record). */
  url(q: Query, arg?: string): string;
  /** Headers of one request to `url`. */
  headers(url: string): Record<string, string>;
}
type Query = 'q1' | 'q2' | 'q3' | 'q4' | 'q5';

const serviceTarget = (name: string, port: number, creds: Credentials): Target => ({
  name,
  port,
  url: (q, arg) => BASE + (q === 'q5' ? serviceUrls.q5(arg!) : serviceUrls[q](arg)),
  headers: (url) => creds.headers(url.slice(BASE.length), 'GET'),
});

/** One autocannon run: requests per second and, when `latencies` is given, every response time (ms). */
async function run(t: Target, path: () => string, connections: number, seconds: number, latencies?: number[]) {
  const instance = autocannon({
    url: `http://127.0.0.1:${t.port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const p = path();
          return { ...req, path: p, headers: t.headers(p) };
        },
      },
    ],
  });
  // autocannon's own latency histogram counts whole milliseconds; per-request overheads are tens of
  // microseconds, so response times are collected as measured (fractions of a millisecond).
  if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(
      `${t.name} ${path()}: ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`,
    );
  }
  return result.requests.average;
}

interface Cell {
  rps: number;
  p50Us: number;
}

/**
 * A workload's throughput on every target: a short warm-up each, then ROUNDS rounds that visit the
 * targets in turn, so drift in the machine's speed (other tenants, thermal state) falls on all
 * alike; medians reported. Then single-connection rounds for p50 latency, in turn as well.
 */
async function measure(label: string, targets: Target[], pathOf: (t: Target) => () => string) {
  const rps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const lat = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) {
    progress(`${label}: warm-up ${t.name}`);
    await run(t, pathOf(t), CONNECTIONS, Math.min(1, DURATION));
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const t of targets) {
      progress(`${label}: throughput round ${r + 1}/${ROUNDS}, ${t.name}`);
      rps.get(t.name)!.push(await run(t, pathOf(t), CONNECTIONS, DURATION));
    }
  }
  for (let r = 0; r < Math.max(1, Math.ceil(ROUNDS / 2)); r++) {
    for (const t of targets) {
      progress(`${label}: single-connection latency round ${r + 1}, ${t.name}`);
      await run(t, pathOf(t), 1, DURATION, lat.get(t.name));
    }
  }
  progressDone();
  return new Map<string, Cell>(
    targets.map((t) => [t.name, { rps: median(rps.get(t.name)!), p50Us: median(lat.get(t.name)!) * 1000 }]),
  );
}

/**
 * One keyset walk of the whole table on every side at once, page by page in turn (floor's page 1,
 * each way's page 1, floor's page 2, …), so a change in the machine's speed during a walk (other
 * tenants) falls on every side alike. Each side's time is the sum of its own page times, its
 * client-side JSON parse of each page included (the same work for every side).
 */
async function walkAll(targets: Target[]): Promise<Map<string, { ms: number; records: number }>> {
  const state = targets.map((t) => ({ t, after: undefined as string | undefined, done: false, ms: 0, records: 0 }));
  while (state.some((s) => !s.done)) {
    for (const s of state) {
      if (s.done) continue;
      const t0 = performance.now();
      const url = s.t.url('q2', s.after);
      const res = await send(s.t.port, url, { headers: s.t.headers(url) });
      if (res.status !== 200) throw new Error(`walk ${s.t.name}: ${res.status} ${res.body.slice(0, 200)}`);
      const page = JSON.parse(res.body) as { data: { _id: string }[]; hasMore: boolean };
      s.ms += performance.now() - t0;
      s.records += page.data.length;
      if (!page.hasMore || page.data.length === 0) s.done = true;
      else s.after = page.data[page.data.length - 1]!._id;
    }
  }
  return new Map(state.map((s) => [s.t.name, { ms: s.ms, records: s.records }]));
}

async function idsOf(t: Target, q: Query, arg?: string): Promise<string[]> {
  const url = t.url(q, arg);
  const res = await send(t.port, url, { headers: t.headers(url) });
  if (res.status !== 200) throw new Error(`${t.name} ${q}: ${res.status} ${res.body.slice(0, 300)}`);
  const body = JSON.parse(res.body) as { data?: { _id: string }[]; _id?: string };
  return body.data ? body.data.map((d) => d._id) : [body._id!];
}

interface SizeReport {
  size: number;
  seedSeconds?: number;
  walked: number;
  rows: {
    label: string;
    kind: 'throughput' | 'walk';
    floor: string;
    cells: Map<string, { ratio: number; p50Us?: number }>;
    floorP50Us?: number;
  }[];
  peak: { totalMb: number; anonMb: number };
}

async function benchSize(size: number): Promise<SizeReport> {
  const label = size >= 1e6 ? `${size / 1e6}M` : `${size / 1e3}k`;
  const reuse = values['data-dir'] !== undefined && existsSync(join(values['data-dir'], 'service.db'));
  const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-'));
  let seedSeconds: number | undefined;
  if (reuse) {
    console.log(`[${label}] reusing the seeded data dir ${dataDir} (seeding not measured; password from --password)`);
  } else {
    console.log(`[${label}] seeding ${size.toLocaleString('en-US')} accounts into ${dataDir} …`);
    const args = [cli, 'seed', '--data-dir', dataDir, '--accounts', String(size), '--admin-password', PASSWORD];
    const seedOut = await runToEnd(args);
    seedSeconds = (JSON.parse(seedOut.trim().split('\n').pop()!) as { seconds: number }).seconds;
    console.log(`[${label}] seeded in ${seedSeconds} s`);
  }

  const svc = await startChild(
    [
      ...(values['profile-dir'] ? ['--cpu-prof', '--cpu-prof-dir', values['profile-dir']] : []),
      cli,
      'serve',
      '--data-dir',
      dataDir,
      '--port',
      '0',
    ],
    /Service:\s+http:\/\/127\.0\.0\.1:(\d+)\//,
  );
  let floor: Awaited<ReturnType<typeof startChild>> | undefined;
  const peak = { totalMb: 0, anonMb: 0 };
  const sample = () => {
    const m = rss(svc.child.pid!);
    peak.totalMb = Math.max(peak.totalMb, m.totalMb);
    peak.anonMb = Math.max(peak.anonMb, m.anonMb);
  };
  const sampler = setInterval(sample, 200);
  try {
    floor = await startChild([join(here, 'floor.js'), join(dataDir, 'service.db'), 'o1_account'], /FLOOR_PORT=(\d+)/);
    const port = Number(svc.match[1]);
    const setup = await adminSetup(port, BASE, PASSWORD);
    const floorT: Target = {
      name: 'floor',
      port: Number(floor.match[1]),
      url: (q, arg) => (q === 'q5' ? floorUrls.q5(arg!) : floorUrls[q](arg)),
      headers: () => ({}),
    };
    const ways: Target[] = [];
    for (const way of WAYS) {
      progress(`[${label}] preparing ${way.name}`);
      ways.push(serviceTarget(way.name, port, await way.prepare(setup)));
    }
    progressDone();

    // Same answers on every side, or the comparison means nothing.
    const sampleIds = await idsOf(floorT, 'q2');
    for (const t of ways) {
      for (const [q, arg] of [['q1'], ['q2'], ['q3'], ['q4'], ['q5', sampleIds[500] ?? sampleIds[0]]] as const) {
        const [a, b] = [await idsOf(t, q, arg), await idsOf(floorT, q, arg)];
        if (JSON.stringify(a) !== JSON.stringify(b) || a.length === 0) {
          throw new Error(`${q}: ${t.name} and the floor disagree (${a.length} and ${b.length} ids)`);
        }
      }
    }
    console.log(`[${label}] every way in gives the floor's answers; measuring (${ways.map((w) => w.name).join(', ')})`);

    const targets = [floorT, ...ways];
    const rows: SizeReport['rows'] = [];
    let i = 0;
    const nextId = () => sampleIds[(i = (i * 7919 + 1) % sampleIds.length)]!;
    const workloads: [string, Query, string][] = [
      ['q1', 'q1', 'Q1 name.last /^s/i, sort last, first (limit 100)'],
      ['q2p', 'q2', `Q2p one ${WALK_PAGE}-row page`],
      ['q3', 'q3', 'Q3 created range, sort desc (limit 100)'],
      ['q4', 'q4', 'Q4 skip 300, sort last (limit 100)'],
      ['q5', 'q5', 'Q5 one record by _id'],
    ];
    for (const [key, q, what] of workloads) {
      if (!QUERIES.has(key)) continue;
      const cells = await measure(`[${label}] ${key}`, targets, (t) =>
        q === 'q5' ? () => t.url('q5', nextId()) : () => t.url(q),
      );
      const f = cells.get('floor')!;
      rows.push({
        label: what,
        kind: 'throughput',
        floor: `${f.rps.toFixed(0)} req/s`,
        floorP50Us: f.p50Us,
        cells: new Map(
          ways.map((w) => [w.name, { ratio: cells.get(w.name)!.rps / f.rps, p50Us: cells.get(w.name)!.p50Us }]),
        ),
      });
    }
    let walked = 0;
    if (QUERIES.has('q2') && WALKS > 0) {
      const times = new Map<string, number[]>(targets.map((t) => [t.name, []]));
      for (let w = 0; w < WALKS; w++) {
        progress(`[${label}] q2 walk ${w + 1}/${WALKS}, every side page by page`);
        for (const [name, { ms, records }] of await walkAll(targets)) {
          if (walked !== 0 && records !== walked) throw new Error(`walk ${name}: ${records} records, not ${walked}`);
          walked = records;
          times.get(name)!.push(ms);
        }
      }
      progressDone();
      const f = median(times.get('floor')!);
      rows.splice(1, 0, {
        label: `Q2 keyset walk of all ${walked.toLocaleString('en-US')}, pages of ${WALK_PAGE}`,
        kind: 'walk',
        floor: `${(f / 1000).toFixed(2)} s`,
        cells: new Map(ways.map((w) => [w.name, { ratio: median(times.get(w.name)!) / f }])),
      });
    }
    sample();
    return { size, ...(seedSeconds !== undefined ? { seedSeconds } : {}), walked, rows, peak };
  } finally {
    clearInterval(sampler);
    const exited = new Promise((resolve) => svc.child.once('exit', resolve));
    svc.child.kill();
    floor?.child.kill();
    // The service writes its CPU profile as it exits.
    if (values['profile-dir']) await exited;
    if (!values['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  }
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');

function print(r: SizeReport): void {
  const names = WAYS.map((w) => w.name);
  console.log(`\n### ${r.size.toLocaleString('en-US')} accounts\n`);
  console.log(
    `Throughput ÷ floor (target ≥ ${TARGET.throughput.toFixed(2)}); Q2: walk time ÷ floor's (target ≤ ${TARGET.walk}×). ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s, medians.\n`,
  );
  console.log(`| query | floor | ${names.join(' | ')} |`);
  console.log(`|---|---|${names.map(() => '---|').join('')}`);
  for (const row of r.rows) {
    const cells = names.map((n) => {
      const c = row.cells.get(n)!;
      return row.kind === 'walk'
        ? `${c.ratio.toFixed(2)}× ${mark(c.ratio <= TARGET.walk)}`
        : `${c.ratio.toFixed(2)} ${mark(c.ratio >= TARGET.throughput)}`;
    });
    console.log(`| ${row.label} | ${row.floor} | ${cells.join(' | ')} |`);
  }
  const timed = r.rows.filter((row) => row.kind === 'throughput');
  if (timed.length > 0) {
    console.log(
      `\nSingle-connection p50 latency, µs (target: a token at most ${TARGET.tokenExtraUs} µs above the session).\n`,
    );
    console.log(`| query | floor | ${names.join(' | ')} |`);
    console.log(`|---|---|${names.map(() => '---|').join('')}`);
    for (const row of timed) {
      const session = row.cells.get('session')?.p50Us;
      const cells = names.map((n) => {
        const us = row.cells.get(n)!.p50Us!;
        const extra = session !== undefined && n.startsWith('token') ? us - session : undefined;
        return `${us.toFixed(0)}${extra !== undefined ? ` (${extra >= 0 ? '+' : ''}${extra.toFixed(0)} ${mark(extra <= TARGET.tokenExtraUs)})` : ''}`;
      });
      console.log(`| ${row.label} | ${row.floorP50Us!.toFixed(0)} | ${cells.join(' | ')} |`);
    }
  }
  console.log(
    `\nService RSS peak ${r.peak.totalMb.toFixed(0)} MB (anonymous ${r.peak.anonMb.toFixed(0)} MB) ${mark(r.peak.totalMb < TARGET.rssMb)} (target < ${TARGET.rssMb} MB)` +
      (r.seedSeconds !== undefined
        ? `; seeding ${r.seedSeconds} s ${mark(r.seedSeconds < TARGET.seedSeconds)} (target < ${TARGET.seedSeconds} s at 1M)`
        : ''),
  );
}

async function main() {
  for (const size of SIZES) print(await benchSize(size));
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exit(1);
});
