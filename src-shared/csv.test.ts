import { describe, expect, it } from 'vitest';
import { csvField, csvRow, valueAtPath } from './csv';

describe('csv', () => {
  it('quotes only when needed and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(undefined)).toBe('');
    expect(csvField(0)).toBe('0');
    expect(csvField(false)).toBe('false');
  });

  it('writes nested values as JSON and ends rows with CRLF', () => {
    expect(csvRow(['x', ['a', 'b'], { k: 1 }])).toBe('x,"[""a"",""b""]","{""k"":1}"\r\n');
  });

  it('reads dotted paths without walking prototypes', () => {
    expect(valueAtPath({ name: { last: 'Smith' } }, 'name.last')).toBe('Smith');
    expect(valueAtPath({ name: {} }, 'name.last')).toBeUndefined();
    expect(valueAtPath({}, 'constructor')).toBeUndefined();
    expect(valueAtPath({ a: [1] }, 'a.0')).toBeUndefined();
  });
});
