import { describe, expect, it } from 'vitest';
import { analyseSample, histogram, valuesAt } from './analyse-sample';

const records = [
  { _id: 'a', name: { first: 'Ann' }, age: 30, favorite: true, created: '2024-01-01T00:00:00.000Z', tags: ['x', 'y'] },
  { _id: 'b', name: { first: 'Bob' }, age: 40, favorite: false, created: '2024-01-11T00:00:00.000Z', tags: ['x'] },
  { _id: 'c', name: { first: 'Ann' }, age: null, created: '2024-01-06T00:00:00.000Z', tags: [] },
  { _id: 'd', enrollments: [{ course: 'm' }, { course: 'n' }] },
];

describe('analyseSample', () => {
  const analysis = analyseSample(records, [
    { path: 'name.first', type: 'String' },
    { path: 'age', type: 'Number' },
    { path: 'favorite', type: 'Boolean' },
    { path: 'created', type: 'Date' },
    { path: 'tags', type: 'String' },
    { path: 'enrollments.course', type: 'String' },
  ]);
  const at = (path: string) => analysis.paths.find((p) => p.path === path);

  it('counts presence per record and the types seen', () => {
    expect(analysis.records).toBe(4);
    expect(at('name.first')).toMatchObject({ present: 3, types: { String: 3 }, distinct: 2 });
    expect(at('age')).toMatchObject({ present: 2, types: { Number: 2, Null: 1 } });
    expect(at('tags')).toMatchObject({ present: 2, types: { String: 3 } });
    expect(at('enrollments.course')).toMatchObject({ present: 1, types: { String: 2 } });
  });

  it('gives top values for text and flags, ranges for numbers and dates', () => {
    expect(at('name.first')?.top).toEqual([
      { value: 'Ann', count: 2 },
      { value: 'Bob', count: 1 },
    ]);
    expect(at('favorite')?.top).toEqual([
      { value: 'false', count: 1 },
      { value: 'true', count: 1 },
    ]);
    expect(at('age')?.range).toMatchObject({ min: 30, max: 40 });
    expect(at('created')?.range).toMatchObject({ min: '2024-01-01T00:00:00.000Z', max: '2024-01-11T00:00:00.000Z' });
    expect(at('created')?.types).toEqual({ Date: 3 });
  });
});

describe('histogram and valuesAt', () => {
  it('puts values into ten equal buckets, the maximum in the last', () => {
    expect(histogram([0, 1, 5, 10]).buckets).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(histogram([3, 3])).toEqual({ min: 3, max: 3, buckets: [2] });
  });

  it('steps into arrays', () => {
    expect(valuesAt({ a: [{ b: 1 }, { b: [2, 3] }] }, 'a.b')).toEqual([1, 2, 3]);
    expect(valuesAt({ a: 1 }, 'a.b')).toEqual([]);
  });

  it('reports _id as an ObjectId and a reference as a Reference, not as String or Document', () => {
    const records = [
      { _id: '0123456789abcdef01234567', c_owner: { _id: '0123456789abcdef0123456a', object: 'account' } },
      { _id: '0123456789abcdef01234568', c_owner: '0123456789abcdef0123456b' },
      { _id: 'not-an-id', c_owner: { name: 'x' } },
    ];
    const analysis = analyseSample(records, [
      { path: '_id', type: 'ObjectId' },
      { path: 'c_owner', type: 'Reference' },
    ]);
    expect(analysis.paths[0]!.types).toEqual({ ObjectId: 2, String: 1 });
    expect(analysis.paths[1]!.types).toEqual({ Reference: 2, Document: 1 });
  });
});
