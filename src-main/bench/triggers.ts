/**
 * `npm run bench:triggers` (issue 41): what a trigger costs a write. Creates of `c_conversation`
 * through REST against an in-process service (Fastify inject), in rounds that alternate three
 * states so the machine's load hits each alike: no trigger script at all, a trivial before
 * trigger on another type (the write's lookup finds none for its own), and a trivial before
 * trigger on `c_conversation` (one sandbox run per write). Reports the p50 and p90 of each and
 * the p50 differences, and a trivial runner script's p50 beside them (what any sandbox run
 * costs); docs/scripting.md#triggers states the expectation (a few ms p50).
 *
 * `--pause MS` waits that long before each write (an open loop, as requests arrive with gaps): the
 * sandbox worker prepares its next run's context while it waits (scripting/engine-prepared.ts),
 * which back-to-back writes leave it no time for.
 *
 *   npm run bench:triggers [-- --writes 300 --rounds 3 --pause 0]
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
const WRITES = arg('writes', 300);
const ROUNDS = arg('rounds', 3);
const PAUSE = arg('pause', 0);
const pause = () => (PAUSE > 0 ? new Promise((resolve) => setTimeout(resolve, PAUSE)) : Promise.resolve());
const EMAIL = 'bench@example.test';
const PASSWORD = 'a bench password that is long';
const TRIVIAL = "if (script.arguments.new.c_title === 'never') throw Fault.create('service.invalidArgument')";

const dataDir = mkdtempSync(join(tmpdir(), 'bench-triggers-'));
const svc = openService({ dataDir, masterKey: randomBytes(32) });
const { consoleAppKey } = await bootstrapOrg(svc, { code: 'bench', adminEmail: EMAIL, adminPassword: PASSWORD });
const server = await buildServer(svc, { jobs: { enabled: false } });
const headers = await sessionHeaders(server, 'bench', consoleAppKey, EMAIL, PASSWORD);

async function request(method: 'POST' | 'PATCH', path: string, payload: unknown) {
  const res = await server.inject({ method, url: `/bench/v2/${path}`, headers, payload: payload as object });
  if (res.statusCode !== 200) throw new Error(`${method} ${path} failed: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string };
}

const trigger = await request('POST', 'scripts', {
  label: 'bench trigger',
  type: 'trigger',
  active: false,
  script: TRIVIAL,
  configuration: { object: 'account', event: 'create.before' },
});

type State = 'none' | 'otherType' | 'thisType';
const STATES: readonly State[] = ['none', 'otherType', 'thisType'];
async function enter(state: State) {
  await request('PATCH', `scripts/${trigger._id}`, {
    active: state !== 'none',
    configuration: { object: state === 'thisType' ? 'c_conversation' : 'account', event: 'create.before' },
  });
}

const times: Record<State, number[]> = { none: [], otherType: [], thisType: [] };
let n = 0;
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const state of STATES) {
    await enter(state);
    for (let i = 0; i < WRITES; i++) {
      await pause();
      const started = performance.now();
      await request('POST', 'c_conversations', { c_title: `bench ${n++}` });
      // Round 0 warms the sandbox's workers and the caches; it is not counted.
      if (round > 0) times[state].push(performance.now() - started);
    }
  }
}

// For reference: the same trivial script run by the runner, with nothing written.
const runnerTimes: number[] = [];
for (let i = 0; i < WRITES * ROUNDS; i++) {
  await pause();
  const started = performance.now();
  await request('POST', 'sys/script_runner', { script: 'return 1', language: 'javascript' });
  runnerTimes.push(performance.now() - started);
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 100) / 100;
};
const p50 = (state: State) => pct(times[state], 50);
const report = {
  writesPerState: times.none.length,
  pauseMs: PAUSE,
  latencyMs: Object.fromEntries(STATES.map((s) => [s, { p50: p50(s), p90: pct(times[s], 90) }])),
  runnerTrivialScriptMs: { p50: pct(runnerTimes, 50), p90: pct(runnerTimes, 90) },
  p50DeltaMs: {
    triggerOnAnotherType: Math.round((p50('otherType') - p50('none')) * 100) / 100,
    trivialBeforeTrigger: Math.round((p50('thisType') - p50('none')) * 100) / 100,
  },
  // On a shared machine the latencies scale with its load.
  loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
};
console.log(JSON.stringify(report, null, 2));
await server.close();
svc.close();
rmSync(dataDir, { recursive: true, force: true });
