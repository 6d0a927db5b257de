import { describe, expect, it } from 'vitest';
import { applyOrder, moveColumn, orderKey, parseOrder } from './column-order';

const cols = (...paths: string[]) => paths.map((path) => ({ path }));

describe('column order', () => {
  it('moves a column before the one it is dropped on (left) or after it (right)', () => {
    expect(moveColumn(['_id', 'email', 'name.last', 'created'], 'created', 'email')).toEqual([
      '_id',
      'created',
      'email',
      'name.last',
    ]);
    expect(moveColumn(['_id', 'email', 'name.last'], '_id', 'name.last')).toEqual(['email', 'name.last', '_id']);
    expect(moveColumn(['_id', 'email'], 'nope', 'email')).toEqual(['_id', 'email']);
  });

  it('shows the stored order first and every other column after, in its own order', () => {
    expect(
      applyOrder(cols('_id', 'email', 'name.last', 'created'), ['created', '_id', 'gone']).map((c) => c.path),
    ).toEqual(['created', '_id', 'email', 'name.last']);
    expect(applyOrder(cols('_id', 'email'), []).map((c) => c.path)).toEqual(['_id', 'email']);
  });

  it('reads only a list of paths, each once, from storage', () => {
    expect(parseOrder('["a", 3, "b", "a"]')).toEqual(['a', 'b']);
    expect(parseOrder('{"a": 1}')).toEqual([]);
    expect(parseOrder('nope')).toEqual([]);
    expect(parseOrder(null)).toEqual([]);
    expect(orderKey('demo', 'accounts')).toBe('console.browse.order.demo.accounts');
  });
});
