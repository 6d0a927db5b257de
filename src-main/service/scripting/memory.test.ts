/**
 * Issue 38, Medium 1: every allocation the engine makes counts against a run's memory limit,
 * typed arrays included (38 × 50 MB `Uint8Array`s once ran to success against 64 MiB and left the
 * service at 2 GB); `memoryPeakBytes` tells the truth; and a worker whose engine memory grew is
 * replaced, so the process's memory stays bounded. Measured in bytes of the workers' WebAssembly
 * memory and of the process, never in time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptRunner } from './runner.js';
import type { RunResult } from './run-types.js';

const MiB = 1024 * 1024;
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

const errCodeOf = (r: RunResult) => (r.ok ? 'ok' : r.fault.errCode);

/** Keeps `count` typed arrays of `bytes` each alive at once. */
const bomb = (count: number, bytes: number) =>
  `const kept = []; for (let i = 0; i < ${count}; i++) kept.push(new Uint8Array(${bytes})); return kept.length`;

describe('script memory', () => {
  it('counts typed arrays against the limit and keeps the worker and the process bounded', async () => {
    const runner = await newRunner({ poolSize: 2 });
    const rssBefore = process.memoryUsage().rss;
    // 12 × 50 MB = 600 MB against the default 64 MiB, twice at once.
    const results = await Promise.all([runner.run({ source: bomb(12, 50e6) }), runner.run({ source: bomb(12, 50e6) })]);
    for (const r of results) {
      expect(errCodeOf(r)).toBe('service.tooLarge.script.memory');
      // The first array was held, the second did not fit: the peak is the truth, within the limit.
      expect(r.stats.memoryPeakBytes).toBeGreaterThanOrEqual(50e6);
      expect(r.stats.memoryPeakBytes).toBeLessThanOrEqual(64 * MiB);
    }
    await runner.ready();
    // The workers that hosted them were replaced: the pool is fresh and small again.
    expect(runner.workerCount).toBe(2);
    for (const bytes of runner.engineMemory()) expect(bytes).toBeLessThanOrEqual(48 * MiB);
    // Without the cap the two runs held 1.2 GB in this process, and kept it.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * MiB);
    expect(await runner.run({ source: 'return 1' })).toMatchObject({ ok: true, value: 1 });
  });

  it('a script that catches the out-of-memory error still ends with the memory fault', async () => {
    const runner = await newRunner({ poolSize: 1 });
    const r = await runner.run({
      source: `try { ${bomb(4, 10e6)} } catch (e) { return 'caught ' + e.message }`,
      limits: { memoryBytes: 16 * MiB },
    });
    expect(errCodeOf(r)).toBe('service.tooLarge.script.memory');
  });

  it('reports the memory a run held, even when it was free again at the end', async () => {
    const runner = await newRunner({ poolSize: 1 });
    const r = await runner.run({ source: 'const a = new Uint8Array(30e6); a[5] = 1; return a.length' });
    expect(r).toMatchObject({ ok: true, value: 30e6 });
    expect(r.stats.memoryPeakBytes).toBeGreaterThanOrEqual(30e6);
  });

  it("a worker grown by a large run gives a later run no more than that run's own limit", async () => {
    // One worker that is never recycled: the second run finds 40 MiB of free memory left by the first.
    const runner = await newRunner({ poolSize: 1, recycleAboveBytes: 1024 * MiB });
    const big = await runner.run({ source: bomb(1, 40e6), limits: { memoryBytes: 48 * MiB } });
    expect(big).toMatchObject({ ok: true, value: 1 });
    expect(runner.engineMemory()[0]).toBeGreaterThan(40e6);
    // Three arrays of 5 MB, each below the 8 MiB limit, together past it.
    const small = await runner.run({ source: bomb(3, 5e6), limits: { memoryBytes: 8 * MiB } });
    expect(errCodeOf(small)).toBe('service.tooLarge.script.memory');
    // Within its limit the same worker still serves it.
    expect(await runner.run({ source: bomb(1, 4e6), limits: { memoryBytes: 8 * MiB } })).toMatchObject({ ok: true });
  });

  it('replaces a worker whose engine memory grew past the bound', async () => {
    const runner = await newRunner({ poolSize: 1, recycleAboveBytes: 24 * MiB });
    expect(runner.engineMemory()[0]).toBeLessThanOrEqual(24 * MiB);
    const r = await runner.run({ source: bomb(1, 20e6) });
    expect(r).toMatchObject({ ok: true, value: 1 });
    await runner.ready();
    expect(runner.workerCount).toBe(1);
    expect(runner.engineMemory()[0]).toBeLessThanOrEqual(24 * MiB);
  });
});
