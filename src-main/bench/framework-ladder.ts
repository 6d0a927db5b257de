/**
 * The framework ladder: how much of Q5's distance to the floor (one record by `_id`) is the
 * framework itself, and how much the service's machinery around its handlers. Starts the floor and
 * one process per rung (`framework-ladder-server.ts`) on a seeded data dir, then measures them all
 * as `npm run bench` measures its sides (`measure.ts`: alternating autocannon rounds, then
 * single-connection latency in turns), and prints each rung's throughput as a share of the floor's.
 *
 *   node dist/main/cli.js seed --data-dir DIR --accounts 100000 --admin-password P
 *   node dist/main/bench/framework-ladder.js --data-dir DIR [--rounds 5] [--duration 4]
 *     [--rungs type-only,validators,guard,fastify]
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { send } from './http-client.js';
import { measure, type Target } from './measure.js';
import { startListeningChild } from './start-child.js';
import { floorUrls } from './workloads.js';
import { RUNG_NAMES, RUNGS, type Rung } from './framework-ladder-rungs.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    table: { type: 'string', default: 'o1_account' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '4' },
    /** Which rungs to measure (each round starts one side later, so their order does not bias them). */
    rungs: { type: 'string', default: RUNG_NAMES.join(',') },
  },
});
const rungs = values.rungs.split(',').map((name) => {
  if (!(RUNG_NAMES as string[]).includes(name)) throw new Error(`--rungs: no rung ${name} (${RUNG_NAMES.join(', ')})`);
  return name as Rung;
});
if (!values['data-dir']) throw new Error('--data-dir DIR (seeded with `cli seed`) is required');
const dbFile = join(values['data-dir'], 'service.db');
const table = values.table;
const here = new URL('.', import.meta.url).pathname;

const db = new Database(dbFile, { readonly: true });
const ids = db.prepare(`SELECT _id FROM "${table}" ORDER BY _id`).pluck().all() as string[];
db.close();
/** Every 97th id of the table, so requests spread over the whole key. */
const sample = ids.filter((_, i) => i % 97 === 0);
if (sample.length === 0) throw new Error(`${table} has no records`);

const children: ChildProcess[] = [];
try {
  const floor = await startListeningChild([join(here, 'floor.js'), dbFile, table], /FLOOR_PORT=(\d+)/);
  children.push(floor.child);
  const targets: Target[] = [
    { name: 'floor', port: floor.port, url: (_q, id) => floorUrls.q5(id!), headers: () => ({}) },
  ];
  for (const rung of rungs) {
    const started = await startListeningChild(
      [join(here, 'framework-ladder-server.js'), dbFile, table, rung],
      /LADDER_PORT=(\d+)/,
    );
    children.push(started.child);
    targets.push({ name: rung, port: started.port, url: (_q, id) => `/demo/v2/accounts/${id!}`, headers: () => ({}) });
  }
  // Same answer on every side, or the comparison means nothing.
  const expected = await send(floor.port, targets[0]!.url('q5', sample[0]));
  for (const t of targets.slice(1)) {
    const got = await send(t.port, t.url('q5', sample[0]));
    if (got.status !== 200 || got.body !== expected.body) throw new Error(`${t.name} and the floor disagree on Q5`);
  }
  let i = 0;
  const settings = {
    rounds: Number(values.rounds),
    duration: Number(values.duration),
    connections: Number(values.connections),
  };
  const cells = await measure(settings, 'ladder q5', targets, (t) => () => {
    i = (i * 7919 + 1) % sample.length;
    return t.url('q5', sample[i]);
  });
  console.log(
    `\nQ5 one record by _id, ${ids.length.toLocaleString('en')} records; ${settings.connections} connections, ` +
      `${settings.rounds} rounds of ${settings.duration} s, medians (÷ floor: of per-round ratios)\n`,
  );
  console.log('| side | what it adds | req/s | ÷ floor | single-connection p50 µs |');
  console.log('|---|---|---|---|---|');
  for (const t of targets) {
    const c = cells.get(t.name)!;
    const what = t.name === 'floor' ? 'bare node:http (floor.ts)' : RUNGS[t.name as keyof typeof RUNGS];
    console.log(`| ${t.name} | ${what} | ${c.rps.toFixed(0)} | ${c.ratio.toFixed(2)} | ${c.p50Us.toFixed(0)} |`);
  }
} finally {
  for (const child of children) child.kill();
}
