/**
 * `npm run bench`: for each size (100,000 and 1,000,000 accounts by default) seeds a temporary
 * data dir, then measures the workloads over HTTP on loopback through every way into the service
 * (session, bearer tokens, signed requests: `ways-in.ts`) and against the floor (the best
 * hand-written answer on the same file: `floor.ts`), and prints one table per size: throughput and
 * walk-time ratios to the floor, single-connection p50 latency per way in, service memory and
 * seeding time. A benchmark, not a test: it asserts only that every side gives the same answers.
 *
 *   --sizes 100000,1000000   --ways session,token-ps512,token-rs512,signed-v1,signed-v2
 *   --queries q1,q2,q2p,q3,q4,q5,qa,qm   --rounds 20   --duration 0.5 (s per round)   --connections 4
 *   --walks 3   --data-dir DIR --password P (reuse a seeded dir; one size)
 *   --profile-dir DIR (a CPU profile of the service process, for profile-layers.js)
 * Quick run while developing: --sizes 20000 --duration 1 --rounds 2 --walks 1
 *
 * How one side is measured: measure.ts; the printed tables and targets: report.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './http-client.js';
import { floorUrls, serviceUrls, WALK_PAGE } from './workloads.js';
import { adminSetup, wayIn, WAYS_IN, type Credentials } from './ways-in.js';
import { startChild } from './start-child.js';
import { progress, progressDone } from './progress.js';
import { dataOf, idsOf, measure, walkAll, type MeasureSettings, type Query, type Target } from './measure.js';
import { print, type SizeReport } from './report.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    ways: { type: 'string', default: WAYS_IN.map((w) => w.name).join(',') },
    queries: { type: 'string', default: 'q1,q2,q2p,q3,q4,q5,qa,qm' },
    // Many short rounds rather than a few long ones: this machine's speed changes within seconds,
    // and a ratio is the median of per-round ratios (measure.ts), so short rounds pair the floor
    // with each way closely in time. The same 10 s per side and workload as 5 rounds of 2 s.
    rounds: { type: 'string', default: '20' },
    duration: { type: 'string', default: '0.5' },
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
const SETTINGS: MeasureSettings = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };

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

const serviceTarget = (name: string, port: number, creds: Credentials): Target => ({
  name,
  port,
  url: (q, arg) => BASE + (q === 'q5' ? serviceUrls.q5(arg!) : serviceUrls[q](arg)),
  headers: (url) => creds.headers(url.slice(BASE.length), 'GET'),
});

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
    const seeded = JSON.parse(seedOut.trim().split('\n').pop()!) as {
      seconds: number;
      writing?: number;
      indexing?: number;
    };
    seedSeconds = seeded.seconds;
    const phases =
      seeded.indexing === undefined
        ? ''
        : ` (writing ${seeded.writing} s, then indexes and checkpoint ${seeded.indexing} s)`;
    console.log(`[${label}] seeded in ${seedSeconds} s${phases}`);
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
      for (const q of ['qa', 'qm'] as const) {
        const [a, b] = [await dataOf(t, q), await dataOf(floorT, q)];
        if (JSON.stringify(a) !== JSON.stringify(b) || a.length === 0) {
          throw new Error(
            `${q}: ${t.name} and the floor disagree (${JSON.stringify(a[0])} and ${JSON.stringify(b[0])})`,
          );
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
      ['qa', 'qa', 'QA $group by name.last, $count (first 100 groups)'],
      ['qm', 'qm', 'QM $match created ≥ date, $group by $month of created'],
    ];
    for (const [key, q, what] of workloads) {
      if (!QUERIES.has(key)) continue;
      const cells = await measure(SETTINGS, `[${label}] ${key}`, targets, (t) =>
        q === 'q5' ? () => t.url('q5', nextId()) : () => t.url(q),
      );
      const f = cells.get('floor')!;
      rows.push({
        label: what,
        kind: 'throughput',
        floor: `${f.rps.toFixed(0)} req/s`,
        floorP50Us: f.p50Us,
        cells: new Map(
          ways.map((w) => {
            const c = cells.get(w.name)!;
            return [w.name, { ratio: c.ratio, p50Us: c.p50Us, vsSession: c.vsSession }];
          }),
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

async function main() {
  for (const size of SIZES)
    print(
      await benchSize(size),
      WAYS.map((w) => w.name),
      SETTINGS,
    );
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exit(1);
});
