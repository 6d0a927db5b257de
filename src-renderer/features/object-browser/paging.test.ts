import { describe, expect, it } from 'vitest';
import { keysetDirection, pagerFor, planPage, type BaseQuery } from './paging';

const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const base: BaseQuery = { where: { state: 'verified' }, paths: [], limit: 2, skip: 0 };

describe('keysetDirection', () => {
  it('pages by key when the order is _id alone', () => {
    expect(keysetDirection(undefined)).toBe(-1);
    expect(keysetDirection({ _id: 1 })).toBe(1);
    expect(keysetDirection({ _id: -1 })).toBe(-1);
    expect(keysetDirection({ 'name.last': 1 })).toBeNull();
    expect(keysetDirection({ 'name.last': 1, _id: 1 })).toBeNull();
  });
});

describe('planPage', () => {
  it('continues the default order (_id descending) with _id $lt the last id', () => {
    const plan = planPage(base, { dir: 'after', id: A });
    expect(plan).toEqual({
      mode: 'keyset',
      reversed: false,
      request: { where: { $and: [{ state: 'verified' }, { _id: { $lt: A } }] }, sort: { _id: -1 }, limit: 2 },
    });
  });

  it('walks back from the first id in the opposite order and marks the page reversed', () => {
    const plan = planPage({ ...base, where: undefined, sort: { _id: 1 } }, { dir: 'before', id: B });
    expect(plan.request).toEqual({ where: { _id: { $lt: B } }, sort: { _id: -1 }, limit: 2 });
    expect(plan.reversed).toBe(true);
  });

  it('uses skip for other orders', () => {
    const plan = planPage({ ...base, sort: { 'name.last': 1 }, skip: 4, paths: ['email'] }, undefined);
    expect(plan).toEqual({
      mode: 'skip',
      reversed: false,
      request: { where: { state: 'verified' }, sort: { 'name.last': 1 }, skip: 4, limit: 2, paths: ['email'] },
    });
  });
});

describe('pagerFor', () => {
  const rows = [{ _id: B }, { _id: A }];

  it('offers next by key while hasMore, and previous once moved', () => {
    const first = pagerFor(planPage(base, undefined), base, undefined, rows, true);
    expect(first).toMatchObject({ canPrevious: false, canNext: true, next: { cursor: { dir: 'after', id: A } } });
    const second = pagerFor(planPage(base, { dir: 'after', id: A }), base, { dir: 'after', id: A }, rows, false);
    expect(second).toMatchObject({ canPrevious: true, canNext: false, previous: { cursor: { dir: 'before', id: B } } });
  });

  it('after going back, hasMore tells whether earlier pages remain', () => {
    const cursor = { dir: 'before', id: A } as const;
    const back = pagerFor(planPage(base, cursor), base, cursor, rows, false);
    expect(back).toMatchObject({ canPrevious: false, canNext: true });
  });

  it('moves skip by the page size', () => {
    const sorted = { ...base, sort: { email: 1 as const }, skip: 2 };
    expect(pagerFor(planPage(sorted, undefined), sorted, undefined, rows, true)).toMatchObject({
      previous: { skip: 0 },
      next: { skip: 4 },
    });
  });
});
