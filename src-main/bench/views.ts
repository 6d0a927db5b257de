/**
 * `npm run bench:views` (issue #17 speed): a view against the same query sent directly. A view
 * `where {"c_status": "{{status}}"}, sort {"c_title": 1}, limit 100` over N conversations, run as
 * `GET /views/<name>?status=open`, against `GET /c_conversations?where=…&sort=…&limit=100` — the
 * same rows (checked), the same SQL, the same session principal, an in-process service (Fastify
 * inject, so the figures are the service's, not a network stack's). Each round sends a batch of
 * each, interleaved request by request; its figure is the mean per request, both in wall-clock
 * time and in CPU time this process spent (process.cpuUsage: what a request costs, whatever else
 * the machine is doing — on a shared machine the wall clock is mostly waiting for a core). The
 * verdict is the ratio of the CPU-time medians; the wall-clock ratio and the spread of the
 * per-round ratios are reported beside it. Also reports how many times the view was compiled during the
 * runs (one compile per view version: 0 after the first run).
 *
 *   npm run bench:views [-- --records 20000 --rounds 15 --batch 100 --max-ratio 1.10]
 *
 * Exit code 1 when the ratio is above --max-ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import { buildServer } from '../service/server.js';
import { sessionHeaders } from './in-process-session.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const RECORDS = arg('records', 20_000);
const ROUNDS = arg('rounds', 15);
const BATCH = arg('batch', 100);
const MAX_RATIO = arg('max-ratio', 1.1);
const EMAIL = 'bench@example.test';
const PASSWORD = 'a bench password that is long';
const STATUSES = ['open', 'closed', 'pending', 'archived'];

const dataDir = mkdtempSync(join(tmpdir(), 'bench-views-'));
const svc = openService({ dataDir, masterKey: randomBytes(32) });
try {
  const { org, consoleAppKey } = await bootstrapOrg(svc, { code: 'bench', adminEmail: EMAIL, adminPassword: PASSWORD });
  const def = svc.defs.byName(org.id, 'c_conversation')!;
  svc.db.transaction(() => {
    for (let i = 0; i < RECORDS; i++) {
      svc.store.insert(org.id, def, {
        c_title: `conversation ${String((i * 7919) % RECORDS).padStart(6, '0')}`,
        c_status: STATUSES[i % STATUSES.length]!,
      });
    }
  })();
  const server = await buildServer(svc);
  const headers = await sessionHeaders(server, 'bench', consoleAppKey, EMAIL, PASSWORD);

  const created = await server.inject({
    method: 'POST',
    url: '/bench/v2/views',
    headers,
    payload: {
      name: 'by_status',
      sourceObject: 'c_conversation',
      principal: EMAIL,
      acl: [{ type: 'account', target: '*' }],
      limit: { settable: true, defaultValue: 100, min: 1, max: 1000 },
      query: [
        { name: 'where', value: '{"c_status": "{{status}}"}' },
        { name: 'sort', value: '{"c_title": 1}' },
      ],
    },
  });
  if (created.statusCode !== 200) throw new Error(`view not created: ${created.body}`);

  const viewUrl = '/bench/v2/views/by_status?status=open&limit=100';
  const directUrl = `/bench/v2/c_conversations?where=${encodeURIComponent('{"c_status":"open"}')}&sort=${encodeURIComponent('{"c_title":1}')}&limit=100`;
  const get = async (url: string) => {
    const res = await server.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const ids = (body: string) => (JSON.parse(body) as { data: { _id: string }[] }).data.map((r) => r._id).join();
  const [v, d] = [await get(viewUrl), await get(directUrl)];
  if (ids(v.body) !== ids(d.body) || ids(v.body) === '') throw new Error('the view and the direct query differ');

  type Cost = { wall: number; cpu: number };
  /**
   * One round: BATCH requests of each side, interleaved one by one (view, direct, direct, view,
   * …) so both sides meet the same machine, whatever other processes do meanwhile. Each request's
   * wall-clock and CPU time is summed to its side; the round's figures are means per request.
   */
  const round = async () => {
    const sum = { view: { wall: 0, cpu: 0 }, direct: { wall: 0, cpu: 0 } };
    const one = async (side: 'view' | 'direct') => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await get(side === 'view' ? viewUrl : directUrl);
      const used = process.cpuUsage(cpu);
      sum[side].wall += performance.now() - started;
      sum[side].cpu += (used.user + used.system) / 1000;
    };
    for (let i = 0; i < BATCH; i++) {
      const first = i % 2 === 0 ? 'view' : 'direct';
      await one(first);
      await one(first === 'view' ? 'direct' : 'view');
    }
    const mean = (c: Cost): Cost => ({ wall: c.wall / BATCH, cpu: c.cpu / BATCH });
    return { view: mean(sum.view), direct: mean(sum.direct) };
  };
  const compilesBefore = svc.views.compiles;
  await round(); // warm-up: statement caches, JIT
  const viewMs: Cost[] = [];
  const directMs: Cost[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const costs = await round();
    viewMs.push(costs.view);
    directMs.push(costs.direct);
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const view = median(viewMs.map((m) => m.cpu));
  const direct = median(directMs.map((m) => m.cpu));
  const ratio = view / direct;
  const viewWall = median(viewMs.map((m) => m.wall));
  const directWall = median(directMs.map((m) => m.wall));
  // Each round's own ratio (its two sides ran interleaved): how far apart the rounds lie.
  const roundRatios = viewMs.map((v, i) => v.cpu / directMs[i]!.cpu).sort((a, b) => a - b);
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  console.log(
    JSON.stringify(
      {
        records: RECORDS,
        rowsPerAnswer: 100,
        rounds: ROUNDS,
        batch: BATCH,
        viewCpuMedianMs: round3(view),
        directCpuMedianMs: round3(direct),
        ratio: round3(ratio),
        roundRatios: {
          min: round3(roundRatios[0]!),
          median: round3(median(roundRatios)),
          max: round3(roundRatios.at(-1)!),
        },
        viewWallMedianMs: round3(viewWall),
        directWallMedianMs: round3(directWall),
        wallRatio: round3(viewWall / directWall),
        compilesDuringRuns: svc.views.compiles - compilesBefore,
        loadavg1m: round3(loadavg()[0]!),
        verdict: ratio <= MAX_RATIO ? `ok (≤ ${MAX_RATIO})` : `over ${MAX_RATIO}`,
      },
      null,
      2,
    ),
  );
  await server.close();
  if (ratio > MAX_RATIO) process.exitCode = 1;
} finally {
  svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
