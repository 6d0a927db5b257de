import { describe, expect, it } from 'vitest';
import { turnOrder } from './turn-order.js';

describe('turnOrder', () => {
  it('starts each round one side later', () => {
    expect(turnOrder(3, 0)).toEqual([0, 1, 2]);
    expect(turnOrder(3, 1)).toEqual([1, 2, 0]);
    expect(turnOrder(3, 5)).toEqual([2, 0, 1]);
  });

  it('gives every side every place once over n rounds', () => {
    const n = 5;
    for (let place = 0; place < n; place++) {
      const sidesAtPlace = Array.from({ length: n }, (_, round) => turnOrder(n, round)[place]);
      expect(new Set(sidesAtPlace).size).toBe(n);
    }
  });
});
