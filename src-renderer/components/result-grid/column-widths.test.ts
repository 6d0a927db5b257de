import { describe, expect, it } from 'vitest';
import { clampWidth, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, parseWidths, widthsKey } from './column-widths';

describe('stored column widths', () => {
  it('reads numbers per path and clamps them', () => {
    expect(parseWidths('{"email": 240.4, "_id": 5, "name.first": 99999}')).toEqual({
      email: 240,
      _id: MIN_COLUMN_WIDTH,
      'name.first': MAX_COLUMN_WIDTH,
    });
  });

  it('ignores what is not a width map', () => {
    expect(parseWidths(null)).toEqual({});
    expect(parseWidths('not json')).toEqual({});
    expect(parseWidths('[1,2]')).toEqual({});
    expect(parseWidths('{"email": "wide"}')).toEqual({});
  });

  it('keys by org and collection', () => {
    expect(widthsKey('demo', 'accounts')).toBe('console.browse.widths.demo.accounts');
    expect(clampWidth(150.6)).toBe(151);
  });
});
