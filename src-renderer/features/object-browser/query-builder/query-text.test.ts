import { describe, expect, it } from 'vitest';
import {
  clean,
  compact,
  countLabel,
  initialNote,
  initialSortText,
  initialTree,
  oneLine,
  pretty,
  sortKeysOf,
} from './query-text';

describe('query text forms', () => {
  it('puts where on one line for the bar and indents it for the JSON view, keeping text that does not parse', () => {
    expect(oneLine('{ "a" : 1 }')).toBe('{"a":1}');
    expect(oneLine('{"a":')).toBe('{"a":');
    expect(oneLine(undefined)).toBe('');
    expect(pretty('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(pretty('{"a":')).toBe('{"a":');
  });

  it('reads a bare sort path as ascending and sort JSON as builder keys', () => {
    expect(initialSortText('created')).toBe('{"created":1}');
    expect(initialSortText('{ "created": -1 }')).toBe('{"created":-1}');
    expect(sortKeysOf('{"created":-1,"name":1}')).toEqual([
      { path: 'created', dir: -1 },
      { path: 'name', dir: 1 },
    ]);
    expect(sortKeysOf('[1]')).toEqual([]);
    expect(sortKeysOf('{')).toEqual([]);
  });

  it('drops an empty condition and absent parts of a draft', () => {
    expect(compact({})).toBeUndefined();
    expect(compact({ a: 1 })).toBe('{"a":1}');
    expect(clean({ paths: ['a'], limit: 5, where: undefined, sort: '{"a":1}' })).toEqual({
      paths: ['a'],
      limit: 5,
      sort: '{"a":1}',
    });
  });

  it('opens the builder on the where it can show and says why when it cannot', () => {
    expect(initialNote(undefined)).toBeNull();
    expect(initialNote('{"a":')).toBe('The builder shows the query again once the JSON parses.');
    const tree = initialTree('{"name":"x"}');
    expect(countLabel(tree)).toBe(' (1)');
    expect(countLabel(initialTree(undefined))).toBe('');
    expect(initialNote('{"name":"x"}')).toBeNull();
  });
});
