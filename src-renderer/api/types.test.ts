import { describe, expect, it } from 'vitest';
import { normalizeList } from './types';

describe('normalizeList', () => {
  it('reads hasMore as a boolean or its string form (the spec shows both)', () => {
    expect(normalizeList({ object: 'list', data: [1], hasMore: true }).hasMore).toBe(true);
    expect(normalizeList({ object: 'list', data: [1], hasMore: 'true' }).hasMore).toBe(true);
    expect(normalizeList({ object: 'list', data: [], hasMore: 'false' })).toEqual({ items: [], hasMore: false });
  });
});
