import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJson } from './json.js';
import { MAX_JSON_NESTING } from './limits.js';

describe('parseJson', () => {
  it('parses like JSON.parse for valid input, preserving key order', () => {
    const text = '{"b":[1,-2.5e3,true,false,null],"a":"\\u00e9\\n\\"","c":{}}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.keys(parseJson(text) as object)).toEqual(['b', 'a', 'c']);
  });
  it.each([
    ['{"a":1,}', 7],
    ['[1 2]', 3],
    ['{"a":01}', 6],
    ['"abc', 0],
    ['{"a":1} x', 8],
  ])('reports the offset of %j', (text, offset) => {
    try {
      parseJson(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).offset).toBe(offset);
    }
  });
  it('treats __proto__ as plain data and bounds nesting', () => {
    const o = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.keys(o)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(() => parseJson('['.repeat(MAX_JSON_NESTING + 1) + ']'.repeat(MAX_JSON_NESTING + 1))).toThrow(
      /nested deeper/,
    );
  });
});
