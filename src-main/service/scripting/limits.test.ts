/**
 * Every limit of a run ends it with a fault naming the limit, and the service thread stays free
 * while a runaway script spins in its worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { ScriptRunner } from './runner.js';
import type { HostCallContext, HostFunctions, RunResult } from './run-types.js';

let runner: ScriptRunner;
beforeAll(async () => {
  runner = new ScriptRunner({ poolSize: 2, hardStopMarginMs: 700 });
  await runner.ready();
});
afterAll(async () => {
  await runner.close();
});

function faultOf(r: RunResult) {
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('expected a fault');
  return r.fault;
}

describe('script limits', () => {
  it('stops while(true){} at its budget, not before (how soon after: `npm run bench:sandbox`)', async () => {
    const t0 = performance.now();
    const r = await runner.run({ source: 'while (true) {}', limits: { timeoutMs: 300 } });
    const took = performance.now() - t0;
    const f = faultOf(r);
    expect(f.errCode).toBe('service.timeout.script');
    expect(f.status).toBe(504);
    expect(took).toBeGreaterThanOrEqual(290);
  });

  it('a timeout cannot be caught by the script', async () => {
    const r = await runner.run({
      source: 'for (;;) { try { while (true) {} } catch (e) { } }',
      limits: { timeoutMs: 200 },
    });
    expect(faultOf(r).errCode).toBe('service.timeout.script');
  });

  it('does not block the service event loop while a runaway script runs', async () => {
    // Ten turns of the main thread's event loop finish while the runaway spins in its worker: its
    // budget is long, and if it held the main thread no turn could come before it ended (the
    // longest pause is measured by `npm run bench:sandbox`).
    let settled = false;
    const runaway = runner.run({ source: 'while (true) {}', limits: { timeoutMs: 2_000 } }).finally(() => {
      settled = true;
    });
    let turns = 0;
    for (; turns < 10 && !settled; turns++) await new Promise((r) => setTimeout(r, 1));
    expect(turns).toBe(10);
    expect(settled).toBe(false);
    expect(faultOf(await runaway).errCode).toBe('service.timeout.script');
  });

  it('stops a memory bomb', async () => {
    const r = await runner.run({
      source: 'const a = []; while (true) a.push("x".repeat(1024) + a.length);',
      limits: { memoryBytes: 16 * 1024 * 1024 },
    });
    const f = faultOf(r);
    expect(f.errCode).toBe('service.tooLarge.script.memory');
    expect(f.status).toBe(413);
    // Stopped near the limit: the run's objects are sampled against it, and growth is capped at it.
    expect(r.stats.memoryPeakBytes).toBeGreaterThan(12 * 1024 * 1024);
    expect(r.stats.memoryPeakBytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    // The worker that hosted the bomb is replaced; the pool keeps its size and keeps working.
    expect(await runner.run({ source: 'return [1, 2].length' })).toMatchObject({ ok: true, value: 2 });
    expect(runner.workerCount).toBe(2);
  });

  it('stops a single huge allocation', async () => {
    const r = await runner.run({
      source: 'return "x".repeat(2 ** 28).length',
      limits: { memoryBytes: 16 * 1024 * 1024 },
    });
    expect(faultOf(r).errCode).toBe('service.tooLarge.script.memory');
  });

  it('stops deep recursion, and the worker survives it', async () => {
    const r = await runner.run({ source: 'function f(n) { return f(n + 1) + 1 }\nreturn f(0)' });
    const f = faultOf(r);
    expect(f.errCode).toBe('service.tooLarge.script.stack');
    expect(f.trace).toMatch(/f Script:1/);
    const again = await runner.run({ source: 'return 7' });
    expect(again).toMatchObject({ ok: true, value: 7 });
  });

  it('refuses an oversize script without running it', async () => {
    const source = `return 1; // ${'x'.repeat(50_000)}`;
    const r = await runner.run({
      source,
      host: {
        driver: () => {
          throw new Error('must not run');
        },
      },
    });
    const f = faultOf(r);
    expect(f.errCode).toBe('service.tooLarge.script');
    expect(f.reason).toMatch(/50000/);
  });

  it('ends a run past its operations budget, even if the script catches the fault', async () => {
    let calls = 0;
    const r = await runner.run({
      source: `
        for (let i = 0; i < 100; i++) {
          try { org.objects.things.count() } catch (e) { }
        }
        return 'finished'`,
      host: { driver: () => ++calls },
      limits: { maxOperations: 10 },
    });
    const f = faultOf(r);
    expect(f.errCode).toBe('service.tooLarge.script.operations');
    expect(calls).toBe(10);
    expect(r.stats.operations).toBeGreaterThanOrEqual(11);
  });

  it('refuses a result larger than the output limit', async () => {
    const r = await runner.run({ source: 'return "y".repeat(2000)', limits: { maxOutputBytes: 1000 } });
    expect(faultOf(r).errCode).toBe('service.tooLarge.script.output');
    const ok = await runner.run({ source: 'return "y".repeat(900)', limits: { maxOutputBytes: 1000 } });
    expect(ok.ok).toBe(true);
  });

  it("bounds a thrown error's text before it leaves the worker (a 4 MB error answers a few KB)", async () => {
    const huge = '"x".repeat(4e6)';
    const sources = [
      `throw new Error(${huge})`,
      `throw ${huge}`,
      `throw { big: ${huge}.slice(0, 1e7) }`,
      `const e = new Error('short'); e.stack = ${huge}; throw e`,
      `const e = new Error(${huge}); e.errCode = 'service.notFound.thing'; e.reason = ${huge}; throw e`,
      `function f() { throw new Error(${huge}) } f()`,
    ];
    for (const source of sources) {
      const f = faultOf(await runner.run({ source }));
      expect(f.errCode, source).toMatch(/^service\.(invalidArgument\.script|notFound\.thing)$/);
      expect(JSON.stringify(f).length, source).toBeLessThan(16_000);
      expect(f.message.length, source).toBeLessThanOrEqual(1000);
    }
  });

  it('bounds console output', async () => {
    const r = await runner.run({
      source: 'for (;;) console.log("spam spam spam")',
      limits: { maxConsoleBytes: 10_000 },
    });
    const f = faultOf(r);
    expect(f.errCode).toBe('service.tooLarge.script.console');
    const bytes = r.logs.reduce((n, l) => n + l.message.length + 1, 0);
    expect(bytes).toBeLessThanOrEqual(10_000);
  });

  it('bounds the bytes a script passes to host calls', async () => {
    let received = 0;
    const r = await runner.run({
      source:
        'const big = "z".repeat(600000); org.objects.things.insertOne({ big }).execute(); org.objects.things.insertOne({ big }).execute(); return 1',
      host: {
        driver: (_o, _op, opts) => {
          received += JSON.stringify(opts).length;
          return { _id: 'x' };
        },
      },
      limits: { maxBytesIn: 1_000_000 },
    });
    expect(faultOf(r).errCode).toBe('service.tooLarge.script.bytesIn');
    expect(received).toBeLessThan(1_000_000);
  });

  it('limits nesting depth: a host call running another script goes one level deeper', async () => {
    const depths: number[] = [];
    const source = 'try { return 1 + org.objects.nest.count() } catch (e) { return e.errCode }';
    const host: HostFunctions = {
      async driver(this: HostCallContext) {
        depths.push(this.depth);
        const inner = await this.runNested({ source, host });
        if (!inner.ok) throw new FaultError(inner.fault);
        return inner.value;
      },
    };
    const r = await runner.run({ source, host });
    // Depths 0..4 run (the pool of 2 borrows workers for the deeper ones); depth 5 is refused.
    expect(depths).toEqual([0, 1, 2, 3, 4]);
    expect(r).toMatchObject({ ok: true, value: '1111service.tooLarge.script.depth' });
    expect(runner.workerCount).toBe(2);
  });
});
