import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, csvRows, ndjsonRows, valueAt } from './encode';

describe('CSV encoding', () => {
  it('quotes only when needed and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(3.5)).toBe('3.5');
  });

  it('writes nested values as JSON in one cell and reads dotted paths', () => {
    const record = { _id: 'x', name: { first: 'Ann', last: 'Lee' }, roles: ['r1', 'r2'] };
    expect(valueAt(record, 'name.first')).toBe('Ann');
    expect(valueAt(record, 'name.middle')).toBeUndefined();
    expect(csvHeader(['_id', 'name.first', 'roles'])).toBe('_id,name.first,roles\r\n');
    expect(csvRows([record], ['_id', 'name.first', 'roles'])).toBe('x,Ann,"[""r1"",""r2""]"\r\n');
  });

  it('writes one JSON record per NDJSON line', () => {
    expect(ndjsonRows([{ a: 1 }, { b: 'x\ny' }])).toBe('{"a":1}\n{"b":"x\\ny"}\n');
  });
});
