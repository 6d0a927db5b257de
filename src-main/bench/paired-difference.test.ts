import { describe, expect, it } from 'vitest';
import { Rng } from '../service/demo/random.js';
import { pairedDifference, pairedRatio } from './paired-difference.js';

/** Differences around `centre`, spread uniformly over ±`spread`. */
function noisy(centre: number, spread: number, n: number, seed: number): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => centre + (rng.next() * 2 - 1) * spread);
}

describe('pairedDifference', () => {
  it('gives the median of the differences, and an interval of one point when they do not vary', () => {
    expect(pairedDifference([5, 5, 5, 5])).toEqual({ median: 5, low: 5, high: 5 });
    expect(pairedDifference([1, 9, 3]).median).toBe(3);
  });

  it('gives an interval around the median that holds the true centre, wider as the noise grows', () => {
    const quiet = pairedDifference(noisy(10, 20, 60, 1));
    const loud = pairedDifference(noisy(10, 400, 60, 2));
    for (const d of [quiet, loud]) {
      expect(d.low).toBeLessThanOrEqual(d.median);
      expect(d.high).toBeGreaterThanOrEqual(d.median);
      expect(d.low).toBeLessThan(10);
      expect(d.high).toBeGreaterThan(10);
    }
    expect(loud.high - loud.low).toBeGreaterThan(5 * (quiet.high - quiet.low));
  });

  it('narrows as cycles are added', () => {
    const few = pairedDifference(noisy(0, 100, 20, 3));
    const many = pairedDifference(noisy(0, 100, 500, 3));
    expect(many.high - many.low).toBeLessThan((few.high - few.low) / 2);
  });

  it('prints the same interval for the same measurements', () => {
    const d = noisy(3, 50, 40, 4);
    expect(pairedDifference(d)).toEqual(pairedDifference([...d]));
  });

  it('has nothing to say about no cycles', () => {
    expect(pairedDifference([]).median).toBeNaN();
  });
});

describe('pairedRatio', () => {
  it('divides round by round, so a machine that sped up between rounds does not bias the ratio', () => {
    // The floor's two fast rounds and the side's fast round fall at different times: the ratio of
    // medians would read 1.0; round by round the side is at half the floor's speed but once.
    expect(pairedRatio([20, 20, 10, 10, 20], [40, 40, 20, 20, 20])).toBe(0.5);
  });

  it('refuses rounds that do not pair', () => {
    expect(() => pairedRatio([1, 2], [1, 2, 3])).toThrow('2 rounds against 3');
  });
});
