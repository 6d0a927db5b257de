/**
 * How the bench measures one side of a comparison (the floor, or the service through one way in):
 * autocannon rounds for throughput and single-connection latency, visiting every side in turn,
 * and a keyset walk of the whole table, page by page on every side at once.
 */
import autocannon from 'autocannon';
import { roundSeconds } from './round-length.js';
import { median, send } from './http-client.js';
import { pairedDifference, pairedRatio, type PairedDifference } from './paired-difference.js';
import { progress, progressDone } from './progress.js';
import { turnOrder } from './turn-order.js';

/** One side of a comparison: the floor, or the service through one way in. */
export interface Target {
  name: string;
  port: number;
  /** URL of a workload on this side (`after`: Q2's cursor; `id`: Q5's record). */
  url(q: Query, arg?: string): string;
  /** Headers of one request to `url`. */
  headers(url: string): Record<string, string>;
  /** The target this one's ratios are taken against (its floor); default the first target. */
  floor?: string;
}
export type Query = 'q1' | 'q2' | 'q3' | 'q4' | 'q5' | 'qa' | 'qm';

/** Rounds, seconds per round and connections of every throughput measurement. */
export interface MeasureSettings {
  rounds: number;
  duration: number;
  connections: number;
}

/** One autocannon run: requests per second. */
async function run(t: Target, path: () => string, connections: number, seconds: number) {
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
  const result = await instance;
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(
      `${t.name} ${path()}: ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`,
    );
  }
  // Completed requests over the run's measured length (autocannon's per-second average needs whole
  // seconds; rounds may be shorter).
  return result.requests.total / result.duration;
}

export interface Cell {
  /** Median requests a second over the rounds. */
  rps: number;
  /**
   * Median over the rounds of this side's requests a second ÷ its floor's (`Target.floor`, else the
   * first target's) in the same round: paired by round, so the machine's changes of speed cancel.
   */
  ratio: number;
  p50Us: number;
  /** Seconds each throughput round lasted (longer than the settings' for a slow workload: round-length.ts). */
  roundSeconds: number;
  /**
   * Median over the latency cycles of this side's turn median minus the session's in the same
   * cycle, in µs, with its 95 % bootstrap interval (paired-difference.ts).
   */
  vsSession?: PairedDifference;
}

/**
 * A workload's throughput on every target: a 1 s warm-up each, then ROUNDS rounds that visit the
 * targets in turn, each round starting one target later (`turnOrder`), so drift in the machine's
 * speed (other tenants, thermal state) and a target's place in the round fall on all alike;
 * medians reported, and each side's ratio to the first target as the median of per-round ratios.
 * Then single-connection latency, every side in short turns.
 */
export async function measure(
  settings: MeasureSettings,
  label: string,
  targets: Target[],
  pathOf: (t: Target) => () => string,
) {
  const { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS } = settings;
  const rps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const warm: number[] = [];
  for (const t of targets) {
    progress(`${label}: warm-up ${t.name}`);
    warm.push(await run(t, pathOf(t), CONNECTIONS, 1));
  }
  const seconds = roundSeconds(warm, DURATION);
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of turnOrder(targets.length, r)) {
      const t = targets[k]!;
      progress(`${label}: throughput round ${r + 1}/${ROUNDS} (${seconds} s), ${t.name}`);
      rps.get(t.name)!.push(await run(t, pathOf(t), CONNECTIONS, seconds));
    }
  }
  // As long in all as the single-connection rounds of every side one after another would take.
  const latencySeconds = Math.max(1, Math.ceil(ROUNDS / 2)) * DURATION * targets.length;
  progress(`${label}: single-connection latency, every side in short turns, ${latencySeconds} s`);
  const lat = await latenciesInTurn(targets, pathOf, latencySeconds);
  progressDone();
  const session = lat.get('session');
  return new Map<string, Cell>(
    targets.map((t) => {
      const mine = lat.get(t.name)!;
      const rounds = rps.get(t.name)!;
      const cell: Cell = {
        rps: median(rounds),
        ratio: pairedRatio(rounds, rps.get(t.floor ?? targets[0]!.name)!),
        p50Us: median(mine.flat()) * 1000,
        roundSeconds: seconds,
      };
      // Paired by cycle: this side's median in a cycle minus the session's in the same cycle.
      if (session)
        cell.vsSession = pairedDifference(mine.map((turn, k) => (median(turn) - median(session[k]!)) * 1000));
      return [t.name, cell];
    }),
  );
}

/** Requests per side in one turn of the latency measurement, and how many of them are not kept. */
const TURN_REQUESTS = 16;
const TURN_WARMUP = 4;

/**
 * Single-connection latency of every side, in short turns (the floor's, then each way's, then
 * again, each cycle starting one side later) over kept-alive connections, so a change in the
 * machine's speed falls on every side alike. A turn is TURN_REQUESTS requests, of which the first
 * TURN_WARMUP are not kept: the first requests after another process's pay for waking this one up
 * (request by request, the floor — the one side alone in its process — was taken for slower than
 * the service). Timed from the request's start to its last byte with Node's http client, the same
 * for every side; a signed request's headers are computed before its timer starts. Returns each
 * side's kept times, turn by turn (`turns[k]` holds the k-th cycle's).
 */
async function latenciesInTurn(
  targets: Target[],
  pathOf: (t: Target) => () => string,
  seconds: number,
): Promise<Map<string, number[][]>> {
  const paths = targets.map((t) => pathOf(t));
  const turns = new Map<string, number[][]>(targets.map((t) => [t.name, []]));
  const until = performance.now() + seconds * 1000;
  for (let cycle = 0; performance.now() < until; cycle++) {
    for (const k of turnOrder(targets.length, cycle)) {
      const t = targets[k]!;
      const kept: number[] = [];
      for (let r = 0; r < TURN_REQUESTS; r++) {
        const url = paths[k]!();
        const headers = t.headers(url);
        const t0 = performance.now();
        const res = await send(t.port, url, { headers });
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${t.name} ${url}: ${res.status} ${res.body.slice(0, 200)}`);
        if (r >= TURN_WARMUP) kept.push(ms);
      }
      turns.get(t.name)!.push(kept);
    }
  }
  return turns;
}

/**
 * One keyset walk of the whole table on every side at once, page by page in turn (floor's page 1,
 * each way's page 1, floor's page 2, …), so a change in the machine's speed during a walk (other
 * tenants) falls on every side alike. Each side's time is the sum of its own page times, its
 * client-side JSON parse of each page included (the same work for every side).
 */
export async function walkAll(targets: Target[]): Promise<Map<string, { ms: number; records: number }>> {
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

/** The page's documents (aggregations: every side's groups and counts must be the same). */
export async function dataOf(t: Target, q: Query): Promise<unknown[]> {
  const url = t.url(q);
  const res = await send(t.port, url, { headers: t.headers(url) });
  if (res.status !== 200) throw new Error(`${t.name} ${q}: ${res.status} ${res.body.slice(0, 300)}`);
  return (JSON.parse(res.body) as { data: unknown[] }).data;
}

export async function idsOf(t: Target, q: Query, arg?: string): Promise<string[]> {
  const url = t.url(q, arg);
  const res = await send(t.port, url, { headers: t.headers(url) });
  if (res.status !== 200) throw new Error(`${t.name} ${q}: ${res.status} ${res.body.slice(0, 300)}`);
  const body = JSON.parse(res.body) as { data?: { _id: string }[]; _id?: string };
  return body.data ? body.data.map((d) => d._id) : [body._id!];
}
