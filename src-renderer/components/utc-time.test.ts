import { describe, expect, it } from 'vitest';
import { formatLocal, formatUtc, fromUtcInput, toUtcInput } from './utc-time';

describe('UTC times', () => {
  it('formats an instant in UTC whatever the local zone', () => {
    expect(formatUtc('2026-11-23T18:49:07.123Z')).toBe('2026-11-23 18:49 UTC');
    expect(formatUtc('2026-11-23T18:49:07.123Z', { seconds: true })).toBe('2026-11-23 18:49:07 UTC');
    expect(formatUtc('2026-01-02T03:04:05+05:00')).toBe('2026-01-01 22:04 UTC');
    expect(formatUtc('nonsense')).toBe('');
    expect(formatLocal('nonsense')).toBe('');
    expect(formatLocal('2026-11-23T18:49:07Z')).toContain('local time');
  });

  it('round-trips datetime-local values as UTC', () => {
    expect(toUtcInput('2026-11-23T18:49:07.123Z')).toBe('2026-11-23T18:49');
    expect(fromUtcInput('2026-11-23T18:49')).toBe('2026-11-23T18:49:00.000Z');
    expect(fromUtcInput('2026-11-23T18:49:30')).toBe('2026-11-23T18:49:30.000Z');
    expect(fromUtcInput(toUtcInput('2030-06-01T00:00:00Z'))).toBe('2030-06-01T00:00:00.000Z');
  });

  it('refuses impossible and malformed dates instead of rolling them over', () => {
    expect(fromUtcInput('2026-02-31T10:00')).toBeNull();
    expect(fromUtcInput('2026-13-01T10:00')).toBeNull();
    expect(fromUtcInput('2026-01-01T24:00')).toBeNull();
    expect(fromUtcInput('')).toBeNull();
    expect(fromUtcInput('2026-01-01')).toBeNull();
  });
});
