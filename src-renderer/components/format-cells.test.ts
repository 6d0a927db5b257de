import { describe, expect, it } from 'vitest';
import { EMPTY_CELL, describeRowRange, formatTimestamp } from './format-cells';

describe('formatTimestamp', () => {
  it('shows ISO timestamps as UTC date and time', () => {
    expect(formatTimestamp('2024-05-01T12:34:56.789Z')).toBe('2024-05-01 12:34:56');
  });

  it('passes through text it cannot parse and marks missing values', () => {
    expect(formatTimestamp('yesterday')).toBe('yesterday');
    expect(formatTimestamp(undefined)).toBe(EMPTY_CELL);
  });
});

describe('describeRowRange', () => {
  it('counts rows from one', () => {
    expect(describeRowRange(25, 25)).toBe('Rows 26–50');
    expect(describeRowRange(0, 0)).toBe('No rows');
    expect(describeRowRange(100, 0)).toBe('No rows after row 100');
  });

  it('adds the total when it is known, and an ellipsis while it is counted', () => {
    expect(describeRowRange(1000, 50, 120_001)).toBe('Rows 1,001–1,050 of 120,001');
    expect(describeRowRange(0, 25, 'counting')).toBe('Rows 1–25 of …');
    expect(describeRowRange(0, 0, 0)).toBe('No rows');
    expect(describeRowRange(100, 0, 80)).toBe('No rows after row 100 of 80');
  });
});
