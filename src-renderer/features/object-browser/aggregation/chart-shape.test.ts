import { describe, expect, it } from 'vitest';
import { chartShape, groupKeyName, keyLabel, timeOfKey } from './chart-shape';

describe('chart shape', () => {
  it('counts per text key are bars', () => {
    const shape = chartShape([
      { _id: 'en_US', count: 12 },
      { _id: 'de_DE', count: 7 },
      { _id: null, count: 1 },
    ]);
    expect(shape).toEqual({ keyPath: '_id', keyKind: 'category', valueFields: ['count'], kinds: ['bar'] });
  });

  it('counts per month, day or date parts are a line over time (bars possible)', () => {
    for (const keys of [
      ['2024-01', '2024-02'],
      ['2024-01-01', '2024-01-02'],
      ['2024-01-01T00:00:00.000Z', '2024-02-01T10:00:00.000Z'],
      [
        { year: 2024, month: 1 },
        { year: 2024, month: 2 },
      ],
    ]) {
      const shape = chartShape(keys.map((_id, i) => ({ _id, count: i + 1 })));
      expect(shape?.keyKind, JSON.stringify(keys)).toBe('time');
      expect(shape?.kinds).toEqual(['line', 'bar']);
    }
  });

  it('numeric keys are a histogram, or bars when they are a few whole numbers', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ _id: i * 1.5, count: 1 }));
    expect(chartShape(many)?.kinds).toEqual(['histogram', 'bar']);
    expect(chartShape([2021, 2022, 2023].map((_id) => ({ _id, n: 3 })))?.kinds).toEqual(['bar', 'histogram']);
  });

  it('lists the numeric fields, count first, and ignores object and the key', () => {
    const shape = chartShape([
      { _id: 'a', object: 'account', avg: 2.5, count: 3, label: 'x' },
      { _id: 'b', object: 'account', avg: null, count: 4, label: 'y' },
    ]);
    expect(shape?.valueFields).toEqual(['count', 'avg']);
  });

  it('has no chart without a key or without a number', () => {
    expect(chartShape([])).toBeNull();
    expect(chartShape([{ count: 500 }])).toBeNull(); // $count
    expect(chartShape([{ _id: 'a', name: 'x' }])).toBeNull();
    // A null key comes out without _id: still a bar, labelled "(none)".
    expect(chartShape([{ _id: 'a', count: 1 }, { count: 2 }])?.kinds).toEqual(['bar']);
  });

  it('mixed keys are categories', () => {
    expect(
      chartShape([
        { _id: '2024-01', count: 1 },
        { _id: 'later', count: 2 },
      ])?.keyKind,
    ).toBe('category');
    expect(
      chartShape([
        { _id: 3, count: 1 },
        { _id: 'x', count: 2 },
      ])?.keyKind,
    ).toBe('category');
  });

  it('reads times and labels keys', () => {
    expect(timeOfKey('2024')).toBe(Date.UTC(2024, 0, 1));
    expect(timeOfKey('2024-13')).toBeUndefined();
    expect(timeOfKey({ year: 2024, month: 2, dayOfMonth: 3 })).toBe(Date.UTC(2024, 1, 3));
    expect(timeOfKey({ year: 2024, locale: 'x' })).toBeUndefined();
    expect(timeOfKey(2024)).toBeUndefined();
    expect(keyLabel(null)).toBe('(none)');
    expect(keyLabel({ gender: 'f', locale: 'en_US' })).toBe('f · en_US');
    expect(keyLabel(false)).toBe('false');
  });
});

describe('group key name', () => {
  it('names the key of the last grouping stage', () => {
    expect(groupKeyName([{ $match: {} }, { $group: { _id: 'locale', count: { $sum: 1 } } }, { $sort: {} }])).toBe(
      'locale',
    );
    expect(groupKeyName([{ $sortByCount: 'name.last' }])).toBe('name.last');
    expect(groupKeyName([{ $group: { _id: { year: { $year: '$created' }, month: { $month: '$created' } } } }])).toBe(
      'year, month',
    );
    expect(groupKeyName([{ $group: { _id: { $year: 'created' } } }])).toBe('year of created');
    expect(groupKeyName([{ $group: { _id: { $dateToString: { format: '%Y-%m', date: 'created' } } } }])).toBe(
      'month of created',
    );
    expect(groupKeyName([{ $group: { _id: { $dateToString: ['%Y', 'created'] } } }])).toBeUndefined();
    expect(groupKeyName([{ $group: { _id: { $add: ['a', 1] } } }])).toBeUndefined();
    expect(groupKeyName([{ $group: { _id: null } }])).toBeUndefined();
    expect(groupKeyName([{ $match: {} }])).toBeUndefined();
  });
});
