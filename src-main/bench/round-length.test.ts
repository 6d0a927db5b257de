import { describe, expect, it } from 'vitest';
import { MAX_ROUND_SECONDS, MIN_ROUND_REQUESTS, roundSeconds } from './round-length.js';

describe('roundSeconds', () => {
  it("keeps the settings' round when every side completes enough requests in it", () => {
    expect(roundSeconds([20_000, 3_000, 400], 0.5)).toBe(0.5);
  });

  it('lengthens the round until the slowest side completes MIN_ROUND_REQUESTS', () => {
    // QM at 1M: about 3.7 requests a second on the slowest side.
    const s = roundSeconds([4.2, 3.7, 5], 0.5);
    expect(s).toBeCloseTo(6.8, 5);
    expect(s * 3.7).toBeGreaterThanOrEqual(MIN_ROUND_REQUESTS);
  });

  it('caps the round, and takes a side that completed nothing in its warm-up as the slowest', () => {
    expect(roundSeconds([0.5, 100], 0.5)).toBe(MAX_ROUND_SECONDS);
    expect(roundSeconds([0, 100], 0.5)).toBe(MAX_ROUND_SECONDS);
    expect(roundSeconds([Number.NaN, 100], 0.5)).toBe(MAX_ROUND_SECONDS);
  });
});
