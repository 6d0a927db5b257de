/**
 * `npm run bench`: for each dataset — the project's seeder at 100,000 and 1,000,000 accounts, and
 * 100,000 accounts from an independent generator imported with the CLI (`datasets.ts`, issue 43) —
 * measures the workloads over HTTP on loopback through every way into the service (session, bearer
 * tokens, signed requests: `ways-in.ts`) and against its floor (the best hand-written answer on the
 * same file: `floor.ts`; for signed requests the floor that also verifies the signature and records
 * the nonce: `floor-signed.ts`), and prints one table per dataset: throughput and walk-time ratios
 * to the floor, single-connection p50 latency per way in, service memory and load time. A
 * benchmark, not a test: it asserts only that every side gives the same answers.
 *
 *   --sizes 100000,1000000 (seeded)   --imported 100000 (generated and imported; 0: none)
 *   --ways session,token-ps512,token-rs512,signed-v1,signed-v2
 *   --queries q1,q2,q2p,q3,q4,q5,qa,qm   --rounds 20   --duration 0.5 (s per round)   --connections 4
 *   --walks 3   --data-dir DIR --password P (reuse a prepared dir; one dataset)
 *   --profile-dir DIR (a CPU profile of the service process, for profile-layers.js)
 *   --paths yes|no (the script runner, route script and cursor paths, paths.ts, on the first seeded dataset)
 * Quick run while developing: npm run bench:quick
 *
 * How one side is measured: measure.ts; the printed tables and targets: report.ts.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './http-client.js';
import { floorUrls, serviceUrls, signedFloorUrls, WALK_PAGE } from './workloads.js';
import { adminSetup, wayIn, WAYS_IN, type Credentials } from './ways-in.js';
import { startChild } from './start-child.js';
import { progress, progressDone } from './progress.js';
import { dataOf, idsOf, measure, walkAll, type MeasureSettings, type Query, type Target } from './measure.js';
import { print, type SizeReport } from './report.js';
import { datasetSpecs, prepareDataset, type Dataset } from './datasets.js';
import { rssSampler } from './rss.js';
import { allowLongScripts, measurePaths, printPaths, type PathsReport } from './paths.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    imported: { type: 'string', default: '100000' },
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
    /** `yes`: the new paths (paths.ts) measured on the first seeded dataset's service, after its workloads. */
    paths: { type: 'string', default: 'yes' },
  },
});
const list = (s: string) => s.split(',').filter(Boolean);
const DATASETS = datasetSpecs(values.sizes, values.imported);
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
if (values['data-dir'] && DATASETS.length !== 1)
  throw new Error('--data-dir takes one dataset (--sizes N --imported 0, or --sizes 0 --imported N)');
const SETTINGS: MeasureSettings = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };

/** A side reached with a way in's credentials: the service, or the authenticating floor. */
const signedTarget = (
  name: string,
  port: number,
  creds: Credentials,
  urls: typeof serviceUrls,
  floor?: string,
): Target => ({
  name,
  port,
  url: (q, arg) => BASE + (q === 'q5' ? urls.q5(arg!) : urls[q](arg)),
  headers: (url) => creds.headers(url.slice(BASE.length), 'GET'),
  ...(floor ? { floor } : {}),
});

async function benchDataset(ds: Dataset, withPaths: boolean): Promise<SizeReport & { paths?: PathsReport }> {
  const { label, dataDir } = ds;
  if (withPaths) allowLongScripts(dataDir);
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
  const memory = rssSampler(svc.child.pid!);
  try {
    const port = Number(svc.match[1]);
    const setup = await adminSetup(port, BASE, PASSWORD);
    const ways: Target[] = [];
    const signedFloors: Target[] = [];
    const credentials: Credentials[] = [];
    for (const way of WAYS) {
      progress(`[${label}] preparing ${way.name}`);
      const creds = await way.prepare(setup);
      credentials.push(creds);
      // A signed way is judged against the floor that also verifies and records (docs/SPEED.md).
      const own = creds.signing ? `floor-${way.name}` : undefined;
      ways.push(signedTarget(way.name, port, creds, serviceUrls, own));
      if (own) signedFloors.push({ ...signedTarget(own, 0, creds, signedFloorUrls), floor: 'floor' });
    }
    progressDone();
    // The floor learns the signing apps' secrets from the bench that created them.
    const keys = credentials.flatMap((c) => (c.signing ? [`${c.signing.key}:${c.signing.secret}`] : []));
    floor = await startChild([join(here, 'floor.js'), join(dataDir, 'service.db'), 'o1_account'], /FLOOR_PORT=(\d+)/, {
      FLOOR_SIGNING_KEYS: keys.join(','),
    });
    const floorPort = Number(floor.match[1]);
    for (const f of signedFloors) f.port = floorPort;
    const floorT: Target = {
      name: 'floor',
      port: floorPort,
      url: (q, arg) => (q === 'q5' ? floorUrls.q5(arg!) : floorUrls[q](arg)),
      headers: () => ({}),
    };
    const floors = [floorT, ...signedFloors];

    // Same answers on every side, or the comparison means nothing.
    const sampleIds = await idsOf(floorT, 'q2');
    for (const t of [...signedFloors, ...ways]) {
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
    console.log(`[${label}] every side gives the floor's answers; measuring (${ways.map((w) => w.name).join(', ')})`);

    const targets = [...floors, ...ways];
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
    const sides = [...signedFloors, ...ways];
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
        roundSeconds: f.roundSeconds,
        cells: new Map(
          sides.map((w) => {
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
      const ownFloor = (t: Target) => median(times.get(t.floor ?? 'floor')!);
      rows.splice(1, 0, {
        label: `Q2 keyset walk of all ${walked.toLocaleString('en-US')}, pages of ${WALK_PAGE}`,
        kind: 'walk',
        floor: `${(median(times.get('floor')!) / 1000).toFixed(2)} s`,
        cells: new Map(sides.map((w) => [w.name, { ratio: median(times.get(w.name)!) / ownFloor(w) }])),
      });
    }
    memory.sample();
    memory.stop(); // the paths' script workers are not the workloads' memory
    const paths = withPaths
      ? await measurePaths(setup, svc.child.pid!, {
          rounds: Math.max(2, Math.round(ROUNDS / 2)),
          duration: DURATION * 2,
          connections: CONNECTIONS,
          memoryRuns: 10_000,
          cursorRecords: Math.min(100_000, ds.size),
          walks: Math.max(1, WALKS),
        })
      : undefined;
    return {
      ...(paths ? { paths } : {}),
      title: ds.title,
      size: ds.size,
      ...(ds.loadSeconds !== undefined
        ? { loadSeconds: ds.loadSeconds, loadNote: ds.loadNote, loadKind: ds.kind }
        : {}),
      walked,
      rows,
      peak: memory.peak,
      floors: signedFloors.map((f) => ({ name: f.name, of: f.name.slice('floor-'.length) })),
    };
  } finally {
    memory.stop();
    const exited = new Promise((resolve) => svc.child.once('exit', resolve));
    svc.child.kill();
    floor?.child.kill();
    // The service writes its CPU profile as it exits.
    if (values['profile-dir']) await exited;
    if (ds.temporary) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `load average at the start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${cpus().length} cores)`,
  );
  let pathsDone = values.paths !== 'yes';
  for (const spec of DATASETS) {
    const ds = await prepareDataset(spec, PASSWORD, values['data-dir']);
    const withPaths = !pathsDone && spec.kind === 'seeded';
    pathsDone ||= withPaths;
    const report = await benchDataset(ds, withPaths);
    print(
      report,
      WAYS.map((w) => w.name),
      SETTINGS,
    );
    if (report.paths) printPaths(report.paths);
    console.log(
      `load average now: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exit(1);
});
