import { describe, expect, it } from 'vitest';
import { utcParts } from './session-time';
import { formatUtc } from './utc-time';

describe('utcParts', () => {
  it('cuts the UTC text between the date and the time of day', () => {
    const iso = '2026-11-23T18:49:07.000Z';
    expect(utcParts(iso)).toEqual({ date: '2026-11-23', time: '18:49 UTC' });
    const parts = utcParts(iso);
    expect(`${parts?.date} ${parts?.time}`).toBe(formatUtc(iso));
  });

  it('is null for an unreadable instant', () => {
    expect(utcParts('not a time')).toBeNull();
    expect(utcParts('')).toBeNull();
  });
});
