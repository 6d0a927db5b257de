/**
 * The paths that arrived after the first bench (issue 43), measured over HTTP on a running service
 * with the administrator's session, each against the same job done by hand through the REST API
 * where there is one:
 *
 *   - the ad-hoc script runner: a trivial script (`return 1`; no floor), and a script reading 10
 *     records through `org.objects` against the same 10 records listed through REST;
 *   - a route script answering a `find` of 10 records, against the same list through REST;
 *   - the service's memory after 10,000 runs of those scripts (target: no growth beyond 10 %);
 *   - a script walking N records through a cursor, against the same walk through REST (keyset
 *     pages of 1,000 on `_id`, as a client that knows the API pages);
 *   - `expand[]` of one reference on a 100-row page, against the page plus one hand-written lookup
 *     (expand-path.ts); a write with and without a `before` trigger: `npm run bench:triggers`.
 *
 * Throughput sides alternate in rounds (`turnOrder`) and a ratio is the median of per-round ratios,
 * as in the main bench. Reported by `npm run bench` after its first seeded dataset, and alone by
 * `npm run bench:paths`.
 */
import autocannon from 'autocannon';
import { median, send } from './http-client.js';
import { pairedRatio } from './paired-difference.js';
import { progress, progressDone } from './progress.js';
import { turnOrder } from './turn-order.js';
import type { Setup } from './ways-in.js';
import { rss } from './rss.js';
import { openService } from '../service/open-service.js';
import { DEFAULT_SCRIPT_LIMITS } from '../service/scripting/limits.js';
import { measureExpand, printExpand, type ExpandReport } from './expand-path.js';

export interface PathSettings {
  rounds: number;
  duration: number;
  connections: number;
  /** Script runs between the two memory samples (target: RSS grows < 10 %). */
  memoryRuns: number;
  /** Records the cursor walk reads (at most the collection's size). */
  cursorRecords: number;
  walks: number;
}

interface Side {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Throws unless the answer is the expected one. */
  check(body: string): void;
}

export interface PathRow {
  label: string;
  name: string;
  floor?: string;
  rps: number;
  ratio?: number;
  p50Ms: number;
  p99Ms: number;
}

export interface PathsReport {
  rows: PathRow[];
  memory: { runs: number; runsPerSecond: number; beforeMb: number; afterMb: number; growthPercent: number };
  cursor: { records: number; scriptSeconds: number; restSeconds: number; ratio: number; pageSize: number };
  expand: ExpandReport;
}

const SCRIPT_TEN = `return org.objects.accounts.find().sort({ _id: 1 }).limit(10).toArray()`;
const ROUTE_PATH = 'bench-ten';
const LIST_TEN = `/accounts?sort=${encodeURIComponent('{"_id":1}')}&limit=10`;

const tenRecords = (body: string) => {
  const parsed = JSON.parse(body) as { data?: unknown };
  const data = Array.isArray(parsed.data) ? parsed.data : [];
  if (data.length !== 10) throw new Error(`expected 10 records, got ${body.slice(0, 200)}`);
};

/** Runs one side with autocannon; requests a second. */
async function throughput(port: number, headers: Record<string, string>, side: Side, s: PathSettings, seconds: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: s.connections,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        method: side.method,
        path: side.path,
        headers: side.body ? { ...headers, 'content-type': 'application/json' } : headers,
        ...(side.body ? { body: side.body } : {}),
      },
    ],
  });
  // autocannon stops at the deadline without waiting for the requests in flight; their scripts still
  // run. One request more, answered after them (a caller's runs are served in order), so the next
  // side does not find its queue holding them (maxQueuedPerCaller: 429).
  await once(port, headers, side);
  if (result.errors + result.timeouts + result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code} ×${count}`);
    throw new Error(
      `${side.name}: ${result.non2xx} non-2xx (${codes.join(', ')}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result.requests.total / result.duration;
}

async function once(port: number, headers: Record<string, string>, side: Side): Promise<number> {
  const t0 = performance.now();
  const res = await send(port, side.path, {
    method: side.method,
    headers: side.body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(side.body ? { body: side.body } : {}),
  });
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${side.name}: ${res.status} ${res.body.slice(0, 300)}`);
  side.check(res.body);
  return ms;
}

const rssMb = (pid: number) => rss(pid).totalMb;

/** Creates the route script the bench calls (GET /routes/bench-ten), as an administrator would. */
async function createRoute(setup: Setup): Promise<void> {
  const res = await send(setup.port, `${setup.base}/scripts`, {
    method: 'POST',
    headers: { ...setup.admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      label: 'bench route: ten records',
      type: 'route',
      active: true,
      script: SCRIPT_TEN,
      configuration: { method: 'get', path: `/${ROUTE_PATH}`, priority: 0 },
    }),
  });
  // A reused data dir (--data-dir) keeps the route an earlier run created: the same script.
  const kept = res.status === 400 && res.body.includes('"errCode":"service.validation.conflict"');
  if (res.status !== 200 && !kept) throw new Error(`creating the route script: ${res.status} ${res.body}`);
}

/** Throughput of every side in alternating rounds, then single-connection latencies in turns. */
async function compare(setup: Setup, label: string, sides: Side[], s: PathSettings) {
  const { port, admin } = setup;
  const rps = new Map<string, number[]>(sides.map((x) => [x.name, []]));
  for (const side of sides) await throughput(port, admin, side, s, 1); // warm-up
  for (let r = 0; r < s.rounds; r++) {
    for (const k of turnOrder(sides.length, r)) {
      progress(`${label}: round ${r + 1}/${s.rounds}, ${sides[k]!.name}`);
      rps.get(sides[k]!.name)!.push(await throughput(port, admin, sides[k]!, s, s.duration));
    }
  }
  const times = new Map<string, number[]>(sides.map((x) => [x.name, []]));
  for (let cycle = 0; cycle < 20; cycle++) {
    for (const k of turnOrder(sides.length, cycle)) {
      for (let i = 0; i < 12; i++) {
        const ms = await once(port, admin, sides[k]!);
        if (i >= 2) times.get(sides[k]!.name)!.push(ms);
      }
    }
  }
  return { rps, times };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** The cursor walk: a script reading `records` through a cursor, and the same walk by keyset pages through REST. */
async function walks(setup: Setup, s: PathSettings) {
  const { port, base, admin } = setup;
  const n = s.cursorRecords;
  const source = `let n = 0; org.objects.accounts.find().sort({ _id: 1 }).limit(${n}).forEach(() => { n++ }); return n`;
  const runner: Side = {
    name: 'script cursor',
    method: 'POST',
    path: `${base}/sys/script_runner`,
    body: JSON.stringify({ script: source, language: 'javascript', specification: 'es6' }),
    check: (body) => {
      if ((JSON.parse(body) as { data?: unknown }).data !== n) throw new Error(`cursor walk: ${body.slice(0, 300)}`);
    },
  };
  const restWalk = async () => {
    let after: string | undefined;
    let seen = 0;
    const t0 = performance.now();
    while (seen < n) {
      const where = after ? `&where=${encodeURIComponent(JSON.stringify({ _id: { $gt: after } }))}` : '';
      const limit = Math.min(1000, n - seen);
      const res = await send(port, `${base}/accounts?sort=${encodeURIComponent('{"_id":1}')}&limit=${limit}${where}`, {
        headers: admin,
      });
      const page = JSON.parse(res.body) as { data: { _id: string }[] };
      if (res.status !== 200 || page.data.length === 0) throw new Error(`REST walk: ${res.status} after ${seen}`);
      seen += page.data.length;
      after = page.data[page.data.length - 1]!._id;
    }
    return (performance.now() - t0) / 1000;
  };
  const script: number[] = [];
  const rest: number[] = [];
  for (let w = 0; w < s.walks; w++) {
    progress(`paths: cursor walk ${w + 1}/${s.walks} of ${n.toLocaleString('en-US')} records, script then REST`);
    // Alternated: the side that goes first changes every walk.
    const order = w % 2 === 0 ? ['script', 'rest'] : ['rest', 'script'];
    for (const side of order) {
      if (side === 'script') script.push((await once(port, admin, runner)) / 1000);
      else rest.push(await restWalk());
    }
  }
  const [scriptSeconds, restSeconds] = [median(script), median(rest)];
  return {
    records: n,
    scriptSeconds,
    restSeconds,
    ratio: scriptSeconds / restSeconds,
    pageSize: DEFAULT_SCRIPT_LIMITS.cursorPageSize,
  };
}

/**
 * Gives the org's scripts 10 minutes a run (org setting `scriptLimits`), before the service starts:
 * the cursor walk reads 100,000 records in one run, which the default 5 s does not allow on a busy
 * machine. No other limit changes.
 */
export function allowLongScripts(dataDir: string): void {
  const svc = openService({ dataDir });
  try {
    const org = svc.orgs.byCode('demo');
    if (!org) throw new Error(`no org demo in ${dataDir}`);
    svc.orgs.updateSettings(org, { scriptLimits: { ...org.settings.scriptLimits, timeoutMs: 600_000 } });
  } finally {
    svc.close();
  }
}

/** Measures every path on a running service (`pid`: its process, for its memory). */
export async function measurePaths(setup: Setup, pid: number, s: PathSettings): Promise<PathsReport> {
  const { base } = setup;
  await createRoute(setup);
  const trivial: Side = {
    name: 'runner: return 1',
    method: 'POST',
    path: `${base}/sys/script_runner`,
    body: JSON.stringify({ script: 'return 1', language: 'javascript', specification: 'es6' }),
    check: (body) => {
      if ((JSON.parse(body) as { data?: unknown }).data !== 1) throw new Error(`trivial script: ${body}`);
    },
  };
  const runnerTen: Side = {
    name: 'runner: find 10',
    method: 'POST',
    path: `${base}/sys/script_runner`,
    body: JSON.stringify({ script: SCRIPT_TEN, language: 'javascript', specification: 'es6' }),
    check: tenRecords,
  };
  const routeTen: Side = {
    name: 'route: find 10',
    method: 'GET',
    path: `${base}/routes/${ROUTE_PATH}`,
    check: tenRecords,
  };
  const restTen: Side = { name: 'REST: list 10', method: 'GET', path: `${base}${LIST_TEN}`, check: tenRecords };

  const { rps, times } = await compare(setup, 'paths', [restTen, trivial, runnerTen, routeTen], s);
  const row = (label: string, side: Side, floor?: Side): PathRow => ({
    label,
    name: side.name,
    ...(floor ? { floor: floor.name, ratio: pairedRatio(rps.get(side.name)!, rps.get(floor.name)!) } : {}),
    rps: median(rps.get(side.name)!),
    p50Ms: percentile(times.get(side.name)!, 50),
    p99Ms: percentile(times.get(side.name)!, 99),
  });
  const rows = [
    row('the same 10 records listed through REST (the floor of the next two)', restTen),
    row('script runner, a trivial script', trivial),
    row('script runner, 10 records through org.objects', runnerTen, restTen),
    row('route script answering a find of 10 records', routeTen, restTen),
  ];

  // Memory: after a warm-up (every worker's engine memory at its high-water mark), then after runs.
  for (let i = 0; i < 300; i++) await once(setup.port, setup.admin, i % 2 ? trivial : runnerTen);
  const beforeMb = rssMb(pid);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: s.connections }, async () => {
      while (done < s.memoryRuns) {
        const k = done++;
        if (k % 500 === 0)
          progress(`paths: memory, run ${k.toLocaleString('en-US')}/${s.memoryRuns.toLocaleString('en-US')}`);
        await once(setup.port, setup.admin, k % 2 ? trivial : runnerTen);
      }
    }),
  );
  const runsPerSecond = s.memoryRuns / ((performance.now() - started) / 1000);
  const afterMb = rssMb(pid);
  const memory = {
    runs: s.memoryRuns,
    runsPerSecond,
    beforeMb,
    afterMb,
    growthPercent: ((afterMb - beforeMb) / beforeMb) * 100,
  };
  const cursor = await walks(setup, s);
  const expand = await measureExpand(setup, s);
  progressDone();
  return { rows, memory, cursor, expand };
}

export function printPaths(r: PathsReport): void {
  console.log('\n### The new paths (script runner, route scripts, cursors), against the same job through REST\n');
  console.log('| path | req/s | ÷ its floor | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const row of r.rows) {
    const ratio = row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)} (÷ ${row.floor})`;
    console.log(
      `| ${row.label} | ${row.rps.toFixed(0)} | ${ratio} | ${row.p50Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} |`,
    );
  }
  const m = r.memory;
  const ok = m.growthPercent < 10 ? '✓' : '✗';
  console.log(
    `\nService RSS over ${m.runs.toLocaleString('en-US')} script runs (half trivial, half find 10; ${m.runsPerSecond.toFixed(0)} runs/s): ` +
      `${m.beforeMb.toFixed(0)} MB after the warm-up → ${m.afterMb.toFixed(0)} MB, ${m.growthPercent >= 0 ? '+' : ''}${m.growthPercent.toFixed(1)} % ${ok} (target < 10 %)`,
  );
  const c = r.cursor;
  console.log(
    `Cursor walk of ${c.records.toLocaleString('en-US')} records: a script (cursor pages of ${c.pageSize}) ${c.scriptSeconds.toFixed(2)} s, ` +
      `REST keyset pages of 1,000 ${c.restSeconds.toFixed(2)} s: ${c.ratio.toFixed(2)}× the REST walk's time`,
  );
  printExpand(r.expand);
}
