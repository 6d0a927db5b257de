/**
 * Cost of a run, measured (printed) and held to loose bounds: a trivial run's median, and the
 * throughput of a small script making 10 host calls on a pool of 2.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ScriptRunner } from './runner.js';

let runner: ScriptRunner;
beforeAll(async () => {
  runner = new ScriptRunner({ poolSize: 2 });
  await runner.ready();
});
afterAll(async () => {
  await runner.close();
});

it('a trivial run costs a few milliseconds (median of 200)', async () => {
  for (let i = 0; i < 20; i++) await runner.run({ source: 'return 1' });
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const r = await runner.run({ source: 'return 1' });
    times.push(performance.now() - t0);
    expect(r.ok).toBe(true);
  }
  times.sort((a, b) => a - b);
  const p50 = times[100]!;
  const p99 = times[198]!;
  console.log(`trivial run: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
  expect(p50).toBeLessThan(25);
});

it('a script with 10 host calls sustains a useful rate on 2 workers', async () => {
  const source = 'let n = 0; for (let i = 0; i < 10; i++) n += org.objects.things.count({ i }); return n';
  const host = { driver: () => 1 };
  for (let i = 0; i < 20; i++) await runner.run({ source, host });
  const total = 400;
  const t0 = performance.now();
  let done = 0;
  const lane = async () => {
    while (done < total) {
      done++;
      const r = await runner.run({ source, host });
      expect(r).toMatchObject({ ok: true, value: 10 });
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  const perSecond = (total / (performance.now() - t0)) * 1000;
  console.log(`10 host calls per run: ${perSecond.toFixed(0)} runs/s`);
  expect(perSecond).toBeGreaterThan(20);
});
