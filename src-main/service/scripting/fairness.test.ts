/**
 * Issue 38, Medium 2, in the runner: one org's runs hold at most their share of the workers while
 * another org's run goes ahead; a caller's backlog and a long wait are answered
 * `service.throttled.script`. Runs are held inside a host call until the test lets them go, so
 * every assertion is about order, never about time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { ScriptRunner } from './runner.js';
import type { HostCallContext, HostFunctions, RunRequest, RunResult } from './run-types.js';

const runners: ScriptRunner[] = [];
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
});

async function newRunner(...args: ConstructorParameters<typeof ScriptRunner>): Promise<ScriptRunner> {
  const r = new ScriptRunner(...args);
  runners.push(r);
  await r.ready();
  return r;
}

/** A host whose every call waits until `open()`: a run using it holds its worker until then. */
function gate(): { host: HostFunctions; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { host: { driver: () => opened.then(() => 1) }, open };
}

const held = (host: HostFunctions, org: string, caller: string): RunRequest => ({
  source: 'return org.objects.things.count()',
  host,
  queue: { org, caller },
  limits: { timeoutMs: 3000 },
});

const errCodeOf = (r: RunResult) => (r.ok ? 'ok' : r.fault.errCode);

describe('fair share of the script workers', () => {
  it("answers another org's run while one org's runs fill their share and more wait", async () => {
    const runner = await newRunner({ poolSize: 3, queue: { maxBusyPerOrg: 2 } });
    const { host, open } = gate();
    let runawayDone = 0;
    const runaway = Array.from({ length: 6 }, () =>
      runner.run(held(host, 'A', 'a')).then((r) => {
        runawayDone += 1;
        return r;
      }),
    );
    const other = await runner.run({ source: 'return 1', queue: { org: 'B', caller: 'b' } });
    expect(other).toMatchObject({ ok: true, value: 1 });
    // B's run finished while every one of A's was still held or waiting.
    expect(runawayDone).toBe(0);
    expect(runner.waiting).toBe(4);
    open();
    expect((await Promise.all(runaway)).map(errCodeOf)).toEqual(Array(6).fill('ok'));
  });

  it("runs an org's nested scripts on borrowed workers once the org holds its share", async () => {
    const runner = await newRunner({ poolSize: 3, queue: { maxBusyPerOrg: 2 } });
    const { host: gated, open } = gate();
    const parentHost: HostFunctions = {
      async driver(this: HostCallContext) {
        const inner = await this.runNested({ source: 'return org.objects.x.count()', host: gated });
        return inner.ok ? inner.value : inner.fault.errCode;
      },
    };
    let parentsDone = 0;
    const parents = [1, 2].map(() =>
      runner.run(held(parentHost, 'A', 'a')).then((r) => {
        parentsDone += 1;
        return r;
      }),
    );
    // Two parents on the pool, and their two nested runs on borrowed workers: five threads.
    for (let i = 0; i < 500 && runner.workerCount < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(runner.workerCount).toBe(5);
    expect(await runner.run({ source: 'return 2', queue: { org: 'B', caller: 'b' } })).toMatchObject({ value: 2 });
    expect(parentsDone).toBe(0);
    open();
    expect((await Promise.all(parents)).map(errCodeOf)).toEqual(['ok', 'ok']);
  });

  it("throttles a caller's backlog instead of queueing it without end; other callers still queue", async () => {
    const runner = await newRunner({ poolSize: 1, queue: { maxQueuedPerCaller: 2 } });
    const { host, open } = gate();
    const first = runner.run(held(host, 'A', 'ip:10.0.0.9'));
    const queued = [runner.run(held(host, 'A', 'ip:10.0.0.9')), runner.run(held(host, 'A', 'ip:10.0.0.9'))];
    const refused = await runner.run(held(host, 'A', 'ip:10.0.0.9'));
    expect(refused).toMatchObject({ ok: false, fault: { errCode: 'service.throttled.script', status: 429 } });
    const admin = runner.run({ source: 'return "admin"', queue: { org: 'A', caller: 'account-1' } });
    expect(runner.waiting).toBe(3);
    open();
    expect((await Promise.all([first, ...queued])).map(errCodeOf)).toEqual(['ok', 'ok', 'ok']);
    expect(await admin).toMatchObject({ ok: true, value: 'admin' });
  });

  it('answers a run that waited maxWaitMs of the service clock with throttled', async () => {
    const clock = new ManualClock(Date.parse('2026-01-15T12:00:00Z'));
    const runner = await newRunner({ poolSize: 1, clock, queue: { maxWaitMs: 1000 } });
    const { host, open } = gate();
    const busy = runner.run(held(host, 'A', 'a'));
    const waiting = runner.run({ source: 'return "late"', queue: { org: 'B', caller: 'b' } });
    clock.advance(999);
    const next = runner.run({ source: 'return "next"', queue: { org: 'C', caller: 'c' } });
    expect(runner.waiting).toBe(2);
    clock.advance(1);
    // Any scheduling event (here a new run) answers the runs whose wait ran out.
    const last = runner.run({ source: 'return "last"', queue: { org: 'D', caller: 'd' } });
    const late = await waiting;
    expect(late).toMatchObject({ ok: false, fault: { errCode: 'service.throttled.script' } });
    expect(!late.ok && late.fault.reason).toMatch(/No script worker was free in time/);
    open();
    expect(errCodeOf(await busy)).toBe('ok');
    expect(await next).toMatchObject({ ok: true, value: 'next' });
    expect(await last).toMatchObject({ ok: true, value: 'last' });
  });
});
