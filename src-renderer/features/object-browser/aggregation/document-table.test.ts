import { describe, expect, it } from 'vitest';
import { cellText, documentColumns } from './document-table';

describe('pipeline output table', () => {
  it('opens documents into paths, keeps arrays whole and puts the key first', () => {
    const docs = [
      { count: 3, _id: { year: 2024, month: 1 }, names: ['a', 'b'] },
      { count: 1, _id: { year: 2024, month: 2 }, extra: { deep: { er: 1 } }, empty: {} },
    ];
    expect(documentColumns(docs)).toEqual(['_id.year', '_id.month', 'count', 'names', 'extra.deep.er', 'empty']);
  });

  it('writes cells plainly', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(['a'])).toBe('["a"]');
    expect(cellText(false)).toBe('false');
  });
});
