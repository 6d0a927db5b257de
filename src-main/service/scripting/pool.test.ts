/**
 * The worker pool: concurrent runs, queueing beyond the pool size, a worker that does not answer
 * is terminated and replaced (and the next run works), close() ends every worker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptRunner } from './runner.js';

const runners: ScriptRunner[] = [];
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
});

function newRunner(...args: ConstructorParameters<typeof ScriptRunner>): ScriptRunner {
  const r = new ScriptRunner(...args);
  runners.push(r);
  return r;
}

describe('script runner pool', () => {
  it('runs scripts concurrently on its workers and queues the rest', async () => {
    const runner = newRunner({ poolSize: 2 });
    await runner.ready();
    const busy = 'const until = Date.now() + 300; while (Date.now() < until) {} return script.arguments';
    const t0 = performance.now();
    const results = await Promise.all([1, 2, 3, 4].map((n) => runner.run({ source: busy, context: { arguments: n } })));
    const took = performance.now() - t0;
    expect(results.map((r) => (r.ok ? r.value : r.fault.errCode))).toEqual([1, 2, 3, 4]);
    // Two at a time: about 2 × 300 ms, clearly less than 4 × 300 ms in series.
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(1100);
    expect(runner.workerCount).toBe(2);
  });

  it('terminates a worker that does not answer past budget + margin, replaces it, and the next run works', async () => {
    const runner = newRunner({ poolSize: 1, hardStopMarginMs: 200 });
    await runner.ready();
    const t0 = performance.now();
    // The test hook stalls the worker outside the engine, where the interrupt handler cannot act.
    const r = await runner.run({ source: 'return 1', limits: { timeoutMs: 200 }, debugBlockMs: 5_000 });
    const took = performance.now() - t0;
    expect(!r.ok && r.fault.errCode).toBe('service.timeout.script');
    expect(!r.ok && r.fault.reason).toMatch(/terminated/);
    expect(took).toBeLessThan(200 + 200 + 150);
    expect(runner.workerCount).toBe(1);
    const next = await runner.run({ source: 'return "alive"' });
    expect(next).toMatchObject({ ok: true, value: 'alive' });
  });

  it('a run queued behind a stuck worker still runs after the replacement', async () => {
    const runner = newRunner({ poolSize: 1, hardStopMarginMs: 100 });
    const stuck = runner.run({ source: 'return 1', limits: { timeoutMs: 100 }, debugBlockMs: 3_000 });
    const queued = runner.run({ source: 'return 2' });
    expect((await stuck).ok).toBe(false);
    expect(await queued).toMatchObject({ ok: true, value: 2 });
  });

  it('a host call that never answers ends the run at its time budget', async () => {
    const runner = newRunner({ poolSize: 1 });
    const t0 = performance.now();
    const r = await runner.run({
      source: 'return org.objects.x.count()',
      host: { driver: () => new Promise(() => undefined) },
      limits: { timeoutMs: 250 },
    });
    expect(!r.ok && r.fault.errCode).toBe('service.timeout.script');
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(await runner.run({ source: 'return 3' })).toMatchObject({ ok: true, value: 3 });
  });

  it('close() ends the workers and refuses later runs', async () => {
    const runner = newRunner({ poolSize: 2 });
    await runner.ready();
    expect(runner.workerCount).toBe(2);
    const pending = runner.run({ source: 'while (true) {}', limits: { timeoutMs: 5_000 } });
    await new Promise((r) => setTimeout(r, 50));
    await runner.close();
    expect(runner.workerCount).toBe(0);
    const ended = await pending;
    expect(ended.ok).toBe(false);
    const after = await runner.run({ source: 'return 1' });
    expect(!after.ok && after.fault.errCode).toBe('service.unsupportedOperation.script');
  });
});
