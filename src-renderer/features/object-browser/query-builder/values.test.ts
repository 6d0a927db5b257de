import { describe, expect, it } from 'vitest';
import { adaptValue, dateInputText, dateModeOf, dateValueOf, defaultValue, isoToPicker, pickerToIso } from './values';

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

describe('date-only values', () => {
  it('opens a day written as a day in the date field, anything else with a time', () => {
    expect(dateModeOf('2024-05-01')).toBe('date');
    expect(dateModeOf('2024-05-01T00:00:00.000Z')).toBe('datetime');
    expect(dateModeOf(3)).toBe('datetime');
  });

  it('switches between the two forms without losing the day', () => {
    const instant = '2024-05-01T12:30:45.000Z';
    expect(dateValueOf(dateInputText(instant, 'date'), 'date')).toBe('2024-05-01');
    expect(dateValueOf(dateInputText('2024-05-01', 'datetime'), 'datetime')).toBe('2024-05-01T00:00:00.000Z');
    expect(dateInputText('2024-05-01T23:30:00-02:00', 'date')).toBe('2024-05-02');
    expect(dateInputText('not a date', 'date')).toBe('');
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
