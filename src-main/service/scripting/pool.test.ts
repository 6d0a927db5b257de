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
    // Each run holds its worker inside a host call until the test lets it go: the number of runs
    // inside at once is counted, not timed (times: `npm run bench:sandbox`).
    const held: (() => void)[] = [];
    let inside = 0;
    let most = 0;
    const host = {
      driver: () =>
        new Promise<number>((resolve) => {
          most = Math.max(most, ++inside);
          held.push(() => {
            inside--;
            resolve(1);
          });
        }),
    };
    const source = 'return org.objects.x.count() + script.arguments';
    const runs = [1, 2, 3, 4].map((n) => runner.run({ source, host, context: { arguments: n } }));
    for (let released = 0; released < 4;) {
      // Bounded: at most 400 turns of 5 ms for the next run to reach its host call.
      for (let turn = 0; held.length === 0 && turn < 400; turn++) await new Promise((r) => setTimeout(r, 5));
      if (held.length === 0) throw new Error('no run reached its host call');
      // Two runs inside at once before the first is let go: concurrent, as far as the pool allows.
      if (released === 0) {
        for (let turn = 0; held.length < 2 && turn < 400; turn++) await new Promise((r) => setTimeout(r, 5));
        expect(inside).toBe(2);
      }
      held.shift()!();
      released++;
    }
    const results = await Promise.all(runs);
    expect(results.map((r) => (r.ok ? r.value : r.fault.errCode))).toEqual([2, 3, 4, 5]);
    // Never more than the pool's two: the other runs waited in the queue.
    expect(most).toBe(2);
    expect(runner.workerCount).toBe(2);
  });

  it('terminates a worker that does not answer past budget + margin, replaces it, and the next run works', async () => {
    const runner = newRunner({ poolSize: 1, hardStopMarginMs: 200 });
    await runner.ready();
    // The test hook stalls the worker outside the engine, where the interrupt handler cannot act.
    // It would stall for 5 s: the answer saying "terminated" shows the hard stop ended it first
    // (how soon: `npm run bench:sandbox`).
    const r = await runner.run({ source: 'return 1', limits: { timeoutMs: 200 }, debugBlockMs: 5_000 });
    expect(!r.ok && r.fault.errCode).toBe('service.timeout.script');
    expect(!r.ok && r.fault.reason).toMatch(/terminated/);
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
    // The driver never answers: only the budget can end the run (how soon: `npm run bench:sandbox`).
    const r = await runner.run({
      source: 'return org.objects.x.count()',
      host: { driver: () => new Promise(() => undefined) },
      limits: { timeoutMs: 250 },
    });
    expect(!r.ok && r.fault.errCode).toBe('service.timeout.script');
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
