import { describe, expect, it } from 'vitest';
import { buildQueryString } from './query-string';

describe('buildQueryString', () => {
  it('encodes objects as JSON and arrays as key[]', () => {
    const text = buildQueryString({
      limit: 25,
      where: { 'name.last': 'Smith' },
      paths: ['_id', 'name'],
      skip: undefined,
    });
    const params = new URLSearchParams(text.slice(1));
    expect(params.get('limit')).toBe('25');
    expect(JSON.parse(params.get('where') ?? 'null')).toEqual({ 'name.last': 'Smith' });
    expect(params.getAll('paths[]')).toEqual(['_id', 'name']);
    expect(params.has('skip')).toBe(false);
  });

  it('is empty when there is nothing to send', () => {
    expect(buildQueryString({ a: undefined })).toBe('');
  });
});
