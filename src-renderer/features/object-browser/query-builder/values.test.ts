import { describe, expect, it } from 'vitest';
import { adaptValue, defaultValue, isoToPicker, pickerToIso } from './values';

const text = { type: 'String' as const, container: false };
const date = { type: 'Date' as const, container: false };

describe('date values', () => {
  it('shows ISO timestamps in the picker as UTC and writes them back as ISO', () => {
    expect(isoToPicker('2024-05-01T12:34:56.000Z')).toBe('2024-05-01T12:34:56');
    expect(isoToPicker('2024-05-01')).toBe('2024-05-01T00:00:00');
    expect(isoToPicker('2024-05-01T14:00:00+02:00')).toBe('2024-05-01T12:00:00');
    expect(isoToPicker(5)).toBe('');
    expect(pickerToIso('2024-05-01T12:34')).toBe('2024-05-01T12:34:00.000Z');
    expect(pickerToIso('2024-05-01T12:34:56')).toBe('2024-05-01T12:34:56.000Z');
    expect(pickerToIso('')).toBe('');
  });
});

describe('operand defaults', () => {
  it('gives each operator an operand of the right shape', () => {
    expect(defaultValue(text, '$exists')).toBe(true);
    expect(defaultValue(text, '$in')).toEqual([]);
    expect(defaultValue({ type: 'Integer', container: false }, '$gt')).toBe(0);
    expect(defaultValue({ type: 'Document', container: true }, '$elemMatch')).toEqual({});
    expect(defaultValue(date, '$eq')).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
  });

  it('keeps the value across compatible operators', () => {
    expect(adaptValue(text, '$eq', '$ne', 'x')).toBe('x');
    expect(adaptValue(text, '$eq', '$in', 'x')).toEqual(['x']);
    expect(adaptValue(text, '$in', '$eq', ['x', 'y'])).toBe('x');
    expect(adaptValue(text, '$eq', '$regex', 'x')).toBe('');
    expect(adaptValue(text, '$eq', '$exists', 'x')).toBe(true);
  });
});
