/**
 * Per-request cost on a loaded machine: starts the floor and one or more builds of the service on
 * one seeded data dir, then sends requests of each workload through each way in, one at a time, in
 * batches that alternate between the sides, and reports for each side the **CPU time its server
 * process spent per request** (every thread of it, from /proc/<pid>/task/<tid>/schedstat, in ns) —
 * what a request costs the server, whatever else the machine is doing — beside the wall-clock
 * median (which on a shared machine is mostly waiting for a core). Medians over the rounds. A
 * signed way also gets its authenticating floor (`floor-<way>`, floor-signed.ts: the floor that
 * verifies the signature and records the nonce) as a side, and a column ÷ it (issue 43).
 *
 *   node dist/main/cli.js seed --data-dir DIR --accounts 20000 --admin-password P
 *   node dist/main/bench/alternate.js --data-dir DIR --password P [--queries q1,q2p,q3,q4,q5]
 *     [--ways session,signed-v1] [--requests 200] [--cli OTHER/cli.js]  (another build, e.g. before a change)
 *     [--profile-dir DIR]  (a CPU profile of each service process)
 *     [--connections 4 --seconds 2]  (load mode: each batch is autocannon for that long, as in the
 *       bench's throughput rounds; reports requests a second instead of the wall p50)
 *
 * One at a time, a request's CPU includes the waits a lone request pays (every response wakes the
 * idle process, epoll and timers); under load those are shared, so the load mode shows what a
 * request costs where the bench's throughput is measured.
 *
 * Signed ways with `--cli`: only the first service started on the data dir holds its replay journal
 * (replay-journal.ts), so a second build of the same kind refuses signed requests; and a token's
 * audience is the first service's port. Compare those ways with one build at a time, each on its
 * own copy of the data dir.
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, send } from './http-client.js';
import { floorUrls, serviceUrls, signedFloorUrls } from './workloads.js';
import { adminSetup, wayIn, type Credentials } from './ways-in.js';
import { startListeningChild } from './start-child.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    password: { type: 'string', default: 'bench password 123' },
    queries: { type: 'string', default: 'q2p,q5' },
    ways: { type: 'string', default: 'session,signed-v1' },
    requests: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '7' },
    cli: { type: 'string', multiple: true, default: [] },
    /** Writes a CPU profile of each service process here (for `profile-layers.js`). */
    'profile-dir': { type: 'string' },
    /** Load mode: this many connections per batch, for `--seconds` (see above). */
    connections: { type: 'string' },
    seconds: { type: 'string', default: '2' },
  },
});
if (!values['data-dir']) throw new Error('--data-dir DIR (seeded with `cli seed`) is required');
const dataDir = values['data-dir'];
const BASE = '/demo/v2';
const here = new URL('.', import.meta.url).pathname;
const clis = [join(here, '..', 'cli.js'), ...values.cli];
const N = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = values.connections === undefined ? undefined : Number(values.connections);
const SECONDS = Number(values.seconds);

/** CPU time (ns) every thread of a process has run so far. */
function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

const children: ChildProcess[] = [];
try {
  const services = [];
  for (const cli of clis) {
    const s = await startListeningChild(
      [
        ...(values['profile-dir'] ? ['--cpu-prof', '--cpu-prof-dir', values['profile-dir']] : []),
        ...[cli, 'serve', '--data-dir', dataDir, '--port', '0'],
      ],
      /Service:\s+http:\/\/127\.0\.0\.1:(\d+)\//,
    );
    children.push(s.child);
    services.push({ label: clis.length === 1 ? 'service' : cli, port: s.port, pid: s.child.pid! });
  }
  // Credentials live in the database, so one set serves every build.
  const setup = await adminSetup(services[0]!.port, BASE, values.password);
  const ways: { name: string; creds: Credentials }[] = [];
  for (const name of values.ways.split(',')) ways.push({ name, creds: await wayIn(name).prepare(setup) });
  // The floor learns the signing apps' secrets, so it also answers as the authenticating floor.
  const keys = ways.flatMap(({ creds: c }) => (c.signing ? [`${c.signing.key}:${c.signing.secret}`] : []));
  const floor = await startListeningChild(
    [join(here, 'floor.js'), join(dataDir, 'service.db'), 'o1_account'],
    /FLOOR_PORT=(\d+)/,
    { FLOOR_SIGNING_KEYS: keys.join(',') },
  );
  children.push(floor.child);
  const ids = (JSON.parse((await send(floor.port, floorUrls.q2())).body) as { data: { _id: string }[] }).data.map(
    (d) => d._id,
  );

  interface Side {
    name: string;
    pid: number;
    port: number;
    /** The path and headers of one request of workload `q` (record `id` for Q5). */
    request(q: string, id: string): { path: string; headers: Record<string, string> };
  }
  // q2p is the walk's first page; q1, q3 and q4 are the bench's list workloads.
  const listUrl = (urls: typeof floorUrls, q: string) =>
    q === 'q2p' || q === 'q2' ? urls.q2() : urls[q as 'q1' | 'q3' | 'q4']();
  const sides: Side[] = [
    {
      name: 'floor',
      pid: floor.child.pid!,
      port: floor.port,
      request: (q, id) => ({ path: q === 'q5' ? floorUrls.q5(id) : listUrl(floorUrls, q), headers: {} }),
    },
    // A signed way's own floor: the floor that verifies the signature and records the nonce.
    ...ways
      .filter((w) => w.creds.signing)
      .map((w): Side => ({
        name: `floor-${w.name}`,
        pid: floor.child.pid!,
        port: floor.port,
        request: (q, id) => {
          const path = q === 'q5' ? signedFloorUrls.q5(id) : listUrl(signedFloorUrls, q);
          return { path: BASE + path, headers: w.creds.headers(path, 'GET') };
        },
      })),
    ...services.flatMap((s) =>
      ways.map((w): Side => ({
        name: `${w.name}${services.length > 1 ? ` @ ${s.label}` : ''}`,
        pid: s.pid,
        port: s.port,
        request: (q, id) => {
          const path = q === 'q5' ? serviceUrls.q5(id) : listUrl(serviceUrls, q);
          return { path: BASE + path, headers: w.creds.headers(path, 'GET') };
        },
      })),
    ),
  ];

  /** One at a time: each request's wall time in ms. */
  const oneByOne = async (side: Side, q: string, count: number, round: number) => {
    const ms: number[] = [];
    for (let i = 0; i < count; i++) {
      const { path, headers } = side.request(q, ids[(i * 37 + round * 11 + 11) % ids.length]!);
      const t0 = performance.now();
      const res = await send(side.port, path, { headers });
      ms.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.slice(0, 200)}`);
    }
    return { requests: count, figure: median(ms) * 1000 };
  };
  let next = 0;
  /** Load mode: autocannon over `connections` for `seconds`; requests a second. */
  const underLoad = async (side: Side, q: string, connections: number, seconds: number) => {
    const result = await autocannon({
      url: `http://127.0.0.1:${side.port}`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, ...side.request(q, ids[(next = (next + 37) % ids.length)]!) }),
        },
      ],
    });
    if (result.errors + result.timeouts + result.non2xx > 0) {
      throw new Error(`${side.name} ${q}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    }
    return { requests: result.requests.total, figure: result.requests.total / result.duration };
  };

  for (const q of values.queries.split(',')) {
    const batch = q === 'q5' ? N * 10 : q === 'q2p' ? N : N * 3;
    const cpu = new Map<string, number[]>(sides.map((s) => [s.name, []]));
    const figures = new Map<string, number[]>(sides.map((s) => [s.name, []]));
    for (let r = -1; r < ROUNDS; r++) {
      // Each round starts with another side: the first batch a process serves after a pause pays
      // more (a collection, cold caches), which must not always fall on the same side.
      const start = Math.max(0, r) % sides.length;
      for (const side of [...sides.slice(start), ...sides.slice(0, start)]) {
        const before = cpuNs(side.pid);
        const { requests, figure } =
          CONNECTIONS === undefined
            ? await oneByOne(side, q, batch, r)
            : await underLoad(side, q, CONNECTIONS, SECONDS);
        const used = (cpuNs(side.pid) - before) / requests / 1000;
        if (r < 0) continue; // the first round warms up
        cpu.get(side.name)!.push(used);
        figures.get(side.name)!.push(figure);
      }
    }
    const floorCpu = median(cpu.get('floor')!);
    const how =
      CONNECTIONS === undefined
        ? `${batch} requests per side, one at a time`
        : `${SECONDS} s per side under ${CONNECTIONS} connections`;
    console.log(`\n${q}: ${ROUNDS} rounds of ${how}, sides alternating; medians\n`);
    const last = CONNECTIONS === undefined ? 'wall p50 µs' : 'requests a second';
    console.log(`| side | server CPU µs per request | − floor | ÷ floor | ÷ its authenticating floor | ${last} |`);
    console.log('|---|---|---|---|---|---|');
    for (const side of sides) {
      const c = median(cpu.get(side.name)!);
      const own = cpu.get(`floor-${side.name.split(' @ ')[0]!}`);
      console.log(
        `| ${side.name} | ${c.toFixed(1)} | ${side.name === 'floor' ? '' : (c - floorCpu).toFixed(1)} | ${(c / floorCpu).toFixed(2)} | ${own ? (c / median(own)).toFixed(2) : ''} | ${median(figures.get(side.name)!).toFixed(0)} |`,
      );
    }
  }
} finally {
  for (const c of children) c.kill();
}
