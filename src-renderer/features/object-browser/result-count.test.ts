import { describe, expect, it } from 'vitest';
import { rangeLabel } from './result-count';

describe('rangeLabel', () => {
  it('writes the Compass form with a grouped total', () => {
    expect(rangeLabel({ first: 1, rows: 100, total: 120001 })).toBe('1–100 of 120,001');
    expect(rangeLabel({ first: 101, rows: 100, total: 120001 })).toBe('101–200 of 120,001');
  });

  it('says when the total is still counting or was cancelled', () => {
    expect(rangeLabel({ first: 1, rows: 5, total: 'counting' })).toBe('1–5 of …');
    expect(rangeLabel({ first: 1, rows: 5, total: 'cancelled' })).toBe('1–5');
  });

  it('gives the row count when the position is unknown (keyset pages after the first)', () => {
    expect(rangeLabel({ first: null, rows: 100, total: 3000 })).toBe('100 rows of 3,000');
    expect(rangeLabel({ first: null, rows: 0, total: 0 })).toBe('No rows');
  });
});
