/**
 * `npm run bench:load [-- --seconds 20 --connections 16]`: a bounded mixed load on loopback with
 * autocannon — list queries, single reads and writes through every way in: a console session, a
 * bearer token, and signed requests (signed afresh per request) —
 * against the service running in a worker thread of a child "host" process (as in the Electron
 * shell). Prints throughput, p50/p99 latency, errors (non-2xx count as errors), the host's memory
 * before and after, and the host main thread's event-loop delay. Exits 1 when any request failed
 * or the service's heap (after full collections) grew by 10 % or more.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import { LOOP_RESOLUTION_MS, runHost, type HostMessage } from './load-host.js';
import { send } from './http-client.js';
import { wayIn, type Credentials } from './ways-in.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/main/bench
const distMain = join(here, '..');
const ADMIN = { email: 'load@example.test', password: 'load bench password' };

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '20' },
      connections: { type: 'string', default: '16' },
      records: { type: 'string', default: '500' },
    },
  });
  const seconds = Number(values.seconds);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  const svc = openService({ dataDir });
  const { consoleAppKey } = await bootstrapOrg(svc, {
    code: 'demo',
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  svc.close();

  const host = fork(fileURLToPath(import.meta.url), ['--host', dataDir], { execArgv: ['--expose-gc'] });
  try {
    const { port } = (await next(host, 'ready')) as { port: number };
    const fixture = await prepare(port, consoleAppKey, Number(values.records));
    const run = (duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: Number(values.connections),
        duration,
        timeout: 10,
        requests: mix(fixture),
      });
    // Warm-up, half as long as the run: JIT, SQLite page cache, statement cache and V8's heap sizing
    // settle first, so "after − before" shows growth under steady load rather than start-up.
    await run(Math.max(2, Math.round(seconds / 2)));
    host.send('start');
    const before = (await next(host, 'started')) as Extract<HostMessage, { type: 'started' }>;
    const result = await run(seconds);
    host.send('stop');
    const after = (await next(host, 'stopped')) as Extract<HostMessage, { type: 'stopped' }>;
    const ok = report(result, before, after);
    process.exitCode = ok ? 0 : 1;
  } finally {
    host.send('exit');
    await new Promise((r) => host.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function next(host: ChildProcess, type: HostMessage['type']): Promise<HostMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: HostMessage) => {
      if (m.type === 'error') reject(new Error(m.message));
      else if (m.type === type) {
        host.off('message', onMessage);
        resolve(m);
      }
    };
    host.on('message', onMessage);
    host.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
  });
}

interface Fixture {
  session: Record<string, string>;
  bearer: Record<string, string>;
  signed: Credentials;
  ids: string[];
}

/** Logs in, mints an ephemeral token, makes a signing app, and writes the records the reads pick from. */
async function prepare(port: number, appKey: string, records: number): Promise<Fixture> {
  const login = await send(port, '/demo/v2/accounts/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': appKey },
    body: JSON.stringify(ADMIN),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.body}`);
  const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const session = {
    'service-client-key': appKey,
    'service-csrf-token': String(login.headers['service-csrf-token']),
    cookie: cookies.join('; '),
  };
  const me = JSON.parse((await send(port, '/demo/v2/accounts/me', { headers: session })).body) as { _id: string };
  const minted = await send(port, `/demo/v2/accounts/${me._id}/tokens`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({
      app: appKey,
      scope: ['object.read.account', 'object.read.c_conversation'],
      expiresIn: 3600,
    }),
  });
  const token = (JSON.parse(minted.body) as { data: string }).data;
  const ids: string[] = [];
  for (let i = 0; i < records; i++) {
    const res = await send(port, '/demo/v2/c_conversations', {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ c_title: `record ${i}`, c_status: i % 2 ? 'open' : 'closed' }),
    });
    ids.push((JSON.parse(res.body) as { _id: string })._id);
  }
  // A signing app acting as the administrator, as the speed bench makes it.
  const signed = await wayIn('signed-v1').prepare({
    port,
    base: '/demo/v2',
    admin: session,
    adminId: me._id,
    consoleAppKey: appKey,
  });
  return { session, bearer: { authorization: `Bearer ${token}` }, signed, ids };
}

const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));

/**
 * Per connection, in turn: 3 single reads, 2 list queries, 2 token verifications, 1 write (with a
 * session), then a signed single read and a signed list query.
 */
function mix(f: Fixture) {
  let n = 0;
  const read = {
    method: 'GET',
    headers: f.session,
    setupRequest: (req: { path?: string }) => ({
      ...req,
      path: `/demo/v2/c_conversations/${f.ids[n++ % f.ids.length]}`,
    }),
  };
  const list = {
    method: 'GET',
    headers: f.session,
    path: `/demo/v2/c_conversations?where=${q({ c_status: 'open', c_title: { $regex: '/^record 1/' } })}&sort=${q({ _id: -1 })}&limit=20`,
  };
  const accounts = {
    method: 'GET',
    headers: f.session,
    path: `/demo/v2/accounts?sort=${q({ 'name.last': 1 })}&limit=50`,
  };
  const token = { method: 'GET', headers: f.bearer, path: '/demo/v2/accounts/me' };
  const tokenList = { method: 'GET', headers: f.bearer, path: '/demo/v2/c_conversations?limit=10' };
  const write = {
    method: 'POST',
    path: '/demo/v2/c_conversations',
    headers: { ...f.session, 'content-type': 'application/json' },
    body: JSON.stringify({ c_title: 'written under load', c_status: 'open' }),
  };
  // Signed requests carry a fresh timestamp, nonce and signature each, so their headers are made per request.
  const signedRead = {
    method: 'GET',
    setupRequest: (req: { path?: string }) => {
      const path = `/c_conversations/${f.ids[n++ % f.ids.length]}`;
      return { ...req, path: `/demo/v2${path}`, headers: f.signed.headers(path, 'GET') };
    },
  };
  const signedList = {
    method: 'GET',
    setupRequest: (req: { path?: string }) => {
      const path = `/accounts?sort=${q({ 'name.last': 1 })}&limit=20`;
      return { ...req, path: `/demo/v2${path}`, headers: f.signed.headers(path, 'GET') };
    },
  };
  return [read, list, token, read, write, accounts, tokenList, read, signedRead, signedList];
}

function report(
  r: Result,
  before: Extract<HostMessage, { type: 'started' }>,
  after: Extract<HostMessage, { type: 'stopped' }>,
): boolean {
  const errors = r.errors + r.timeouts + r.non2xx;
  const pct = (a: number, b: number) => (b - a) / a;
  const rssGrowth = pct(before.memory.rssMb, after.memory.rssMb);
  // The leak indicator: the service's heap after full collections. RSS is reported too, but
  // allocators keep freed pages and SQLite's page cache fills with use, so it is only informative.
  const growth = pct(before.memory.workerHeapMb, after.memory.workerHeapMb);
  const rows: [string, string][] = [
    ['duration', `${r.duration} s`],
    ['requests', `${r.requests.total}`],
    ['throughput', `${Math.round(r.requests.average)} req/s (${Math.round(r.throughput.average / 1024)} KiB/s)`],
    ['latency p50 / p99 / max', `${r.latency.p50} / ${r.latency.p99} / ${r.latency.max} ms`],
    ['errors (incl. non-2xx, timeouts)', `${errors}${errors ? `  ${JSON.stringify(r.statusCodeStats)}` : ''}`],
    [
      'service heap before → after (GC)',
      `${before.memory.workerHeapMb} → ${after.memory.workerHeapMb} MB (${(growth * 100).toFixed(1)} %)`,
    ],
    [
      'host RSS before → after',
      `${before.memory.rssMb} → ${after.memory.rssMb} MB (${(rssGrowth * 100).toFixed(1)} %)`,
    ],
    ['host main-thread heap', `${before.memory.heapUsedMb} → ${after.memory.heapUsedMb} MB`],
    [
      'host event-loop delay p50 / p99 / max',
      `${after.delay.p50Ms} / ${after.delay.p99Ms} / ${after.delay.maxMs} ms beyond the ${LOOP_RESOLUTION_MS} ms timer`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(
    '\nbench:load — mixed workload (session, bearer token, signed requests) against the service in a worker thread\n',
  );
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  const verdicts = [
    [errors === 0, 'no errors'],
    [growth < 0.1, 'service heap growth < 10 %'],
  ] as const;
  console.log('');
  for (const [ok, what] of verdicts) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${what}`);
  return verdicts.every(([ok]) => ok);
}

// Last, so every module-level constant above is initialised before it runs.
if (process.argv.includes('--host')) {
  runHost(process.argv[process.argv.indexOf('--host') + 1]!, distMain);
} else {
  await main();
}
