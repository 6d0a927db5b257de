/**
 * `expand[]` of one reference (issue 43), measured on a running service with the administrator's
 * session: a 100-row page of `c_bench_ref`, whose records each reference a different account,
 * with `expand[]=c_account`, against its floor — the same page without the expansion plus one
 * hand-written lookup of the 100 referenced accounts (`where={"_id":{"$in":[…]}}`), the join
 * done by the client. Both sides answer the same records; the floor pays two requests, which is
 * what a client without `expand[]` pays.
 *
 * Throughput: `connections` loops per side for `duration` seconds, sides alternating by round
 * (`turnOrder`), the ratio the median of per-round ratios; latency: single-connection turns.
 */
import { median, send } from './http-client.js';
import { pairedRatio } from './paired-difference.js';
import { progress } from './progress.js';
import { turnOrder } from './turn-order.js';
import type { Setup } from './ways-in.js';

export const EXPAND_PAGE = 100;
const TYPE = 'c_bench_ref';
const SORT = encodeURIComponent('{"_id":1}');

export interface ExpandSettings {
  rounds: number;
  duration: number;
  connections: number;
}

export interface ExpandReport {
  page: number;
  expandOpsPerSecond: number;
  floorOpsPerSecond: number;
  /** Expand's throughput ÷ the floor's (paired by round). */
  ratio: number;
  expandP50Ms: number;
  floorP50Ms: number;
}

type Json = Record<string, unknown>;

async function ok(setup: Setup, path: string, init: { method?: string; body?: unknown } = {}): Promise<Json> {
  const res = await send(setup.port, `${setup.base}${path}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? setup.admin : { ...setup.admin, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as Json;
}

const rows = (page: Json) => (Array.isArray(page.data) ? (page.data as Json[]) : []);

/** The type and its 100 records, each referencing another of the first accounts; kept when a data dir is reused. */
async function prepare(setup: Setup): Promise<void> {
  const made = await send(setup.port, `${setup.base}/schemas`, {
    method: 'POST',
    headers: { ...setup.admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: TYPE,
      label: 'bench: a reference to an account',
      properties: [{ name: 'c_account', type: 'Reference', refObject: 'account', indexed: true }],
    }),
  });
  if (made.status !== 200 && !made.body.includes('"errCode":"service.validation.conflict"')) {
    throw new Error(`creating ${TYPE}: ${made.status} ${made.body.slice(0, 300)}`);
  }
  const have = rows(await ok(setup, `/${TYPE}s?limit=${EXPAND_PAGE}`)).length;
  if (have >= EXPAND_PAGE) return;
  const accounts = rows(await ok(setup, `/accounts?sort=${SORT}&limit=${EXPAND_PAGE}&paths[]=_id`));
  if (accounts.length < EXPAND_PAGE) throw new Error(`expand[] needs ${EXPAND_PAGE} accounts`);
  for (const a of accounts.slice(have)) await ok(setup, `/${TYPE}s`, { method: 'POST', body: { c_account: a._id } });
}

/** One page with the reference expanded; throws unless every row carries its account. */
async function expanded(setup: Setup): Promise<void> {
  const page = rows(await ok(setup, `/${TYPE}s?sort=${SORT}&limit=${EXPAND_PAGE}&expand[]=c_account`));
  if (page.length !== EXPAND_PAGE || !page.every((r) => typeof (r.c_account as Json | undefined)?.email === 'string')) {
    throw new Error('expand[]: a row without its expanded account');
  }
}

/** The floor: the page, then the referenced accounts in one lookup, joined here. */
async function byHand(setup: Setup): Promise<void> {
  const page = rows(await ok(setup, `/${TYPE}s?sort=${SORT}&limit=${EXPAND_PAGE}`));
  const ids = page.map((r) => (r.c_account as Json)._id as string);
  const where = encodeURIComponent(JSON.stringify({ _id: { $in: ids } }));
  const found = new Map(
    rows(await ok(setup, `/accounts?where=${where}&limit=${EXPAND_PAGE}`)).map((a) => [a._id as string, a]),
  );
  const joined = page.map((r) => ({ ...r, c_account: found.get((r.c_account as Json)._id as string) }));
  if (joined.length !== EXPAND_PAGE || !joined.every((r) => typeof r.c_account?.email === 'string')) {
    throw new Error('floor: a row without its account');
  }
}

/** Operations a second with `connections` loops for `seconds`. */
async function throughput(op: () => Promise<void>, connections: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await op();
        done++;
      }
    }),
  );
  return done / seconds;
}

export async function measureExpand(setup: Setup, s: ExpandSettings): Promise<ExpandReport> {
  progress('paths: expand[], preparing 100 records that reference accounts');
  await prepare(setup);
  const sides = [
    { name: 'expand', op: () => expanded(setup) },
    { name: 'floor', op: () => byHand(setup) },
  ];
  const rps = new Map<string, number[]>(sides.map((x) => [x.name, []]));
  for (const side of sides) await throughput(side.op, s.connections, 1); // warm-up
  for (let r = 0; r < s.rounds; r++) {
    for (const k of turnOrder(sides.length, r)) {
      progress(`paths: expand[], round ${r + 1}/${s.rounds}, ${sides[k]!.name}`);
      rps.get(sides[k]!.name)!.push(await throughput(sides[k]!.op, s.connections, s.duration));
    }
  }
  const times = new Map<string, number[]>(sides.map((x) => [x.name, []]));
  for (let cycle = 0; cycle < 20; cycle++) {
    for (const k of turnOrder(sides.length, cycle)) {
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await sides[k]!.op();
        if (i >= 2) times.get(sides[k]!.name)!.push(performance.now() - t0);
      }
    }
  }
  return {
    page: EXPAND_PAGE,
    expandOpsPerSecond: median(rps.get('expand')!),
    floorOpsPerSecond: median(rps.get('floor')!),
    ratio: pairedRatio(rps.get('expand')!, rps.get('floor')!),
    expandP50Ms: median(times.get('expand')!),
    floorP50Ms: median(times.get('floor')!),
  };
}

export function printExpand(r: ExpandReport): void {
  const ok = r.ratio >= 0.67 ? '✓' : '✗';
  console.log(
    `expand[] of one reference on a ${r.page}-row page: ${r.expandOpsPerSecond.toFixed(0)} pages/s against ` +
      `${r.floorOpsPerSecond.toFixed(0)} for the page plus one hand-written lookup (two requests, joined by the client): ` +
      `${r.ratio.toFixed(2)} ${ok} (target ≥ 0.67); single-connection p50 ${r.expandP50Ms.toFixed(1)} ms against ${r.floorP50Ms.toFixed(1)} ms`,
  );
}
