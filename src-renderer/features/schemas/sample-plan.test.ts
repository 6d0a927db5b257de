import { describe, expect, it } from 'vitest';
import { MAX_SKIP } from '../../../src-shared/query/limits';
import { SAMPLE_RUNS, samplePlan } from './sample-plan';

/** A seeded generator (mulberry32), so the plan is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('samplePlan', () => {
  it('asks for everything when the collection is no bigger than the sample', () => {
    expect(samplePlan(80, 100, seeded(1))).toEqual([{ skip: 0, limit: 80 }]);
  });

  it('takes exactly size records in runs that do not overlap and stay in the collection', () => {
    for (const [total, size] of [
      [120_001, 100],
      [120_001, 1000],
      [1_000, 500],
      [130, 100],
    ] as const) {
      const plan = samplePlan(total, size, seeded(total + size));
      expect(plan).toHaveLength(Math.min(SAMPLE_RUNS, size));
      expect(plan.reduce((sum, r) => sum + r.limit, 0)).toBe(size);
      for (let i = 0; i < plan.length; i++) {
        const run = plan[i]!;
        expect(run.skip + run.limit).toBeLessThanOrEqual(total);
        if (i > 0) expect(run.skip).toBeGreaterThanOrEqual(plan[i - 1]!.skip + plan[i - 1]!.limit);
      }
    }
  });

  it('spreads the runs over the whole collection, not its newest end', () => {
    const plan = samplePlan(120_001, 100, seeded(7));
    expect(plan[0]!.skip).toBeLessThan(120_001 / SAMPLE_RUNS);
    expect(plan.at(-1)!.skip).toBeGreaterThan(120_001 * (1 - 2 / SAMPLE_RUNS));
  });

  it('never skips past what skip paging reaches', () => {
    const plan = samplePlan(5_000_000, 1000, seeded(3));
    expect(Math.max(...plan.map((r) => r.skip))).toBeLessThanOrEqual(MAX_SKIP);
  });
});
