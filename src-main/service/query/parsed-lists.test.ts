import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { FaultError } from '../../../src-shared/faults.js';
import { parseAggregation } from '../../../src-shared/query/pipeline/list-arguments.js';
import { MAX_CACHED_ARGS_LENGTH, MAX_CACHED_PER_DEF, ParsedAggregations, ParsedListQueries } from './parsed-lists.js';

const def = (): ObjectDef =>
  ({
    name: 'c_thing',
    collection: 'c_things',
    properties: [
      { name: 'c_name', type: 'String', indexed: true },
      { name: 'c_count', type: 'Number', indexed: true },
    ],
  }) as unknown as ObjectDef;

const where = (n: number) => JSON.stringify({ c_count: { $gt: n } });

describe('ParsedListQueries', () => {
  it('answers the same arguments with the same parse, equal to a fresh one', () => {
    const cache = new ParsedListQueries();
    const d = def();
    const raw = { where: where(3), sort: '{"c_name":-1}', limit: '10' };
    const first = cache.parse(raw, d);
    expect(cache.parse({ ...raw }, d)).toBe(first);
    expect(first).toEqual(parseListQuery(raw, d));
  });

  it('keys on every argument and on the negation setting', () => {
    const cache = new ParsedListQueries();
    const d = def();
    const base = cache.parse({ where: where(1) }, d);
    expect(cache.parse({ where: where(2) }, d)).not.toBe(base);
    expect(cache.parse({ where: where(1), skip: '5' }, d).skip).toBe(5);
    expect(cache.parse({ where: where(1), limit: '7' }, d).limit).toBe(7);
    expect(cache.parse({ where: where(1), sort: '{"c_count":1}' }, d).sort[0]?.field.path).toBe('c_count');
    expect(cache.parse({ where: where(1), paths: ['c_name'] }, d).paths).toEqual(['c_name']);
    const ne = { where: JSON.stringify({ c_count: { $ne: 1 } }) };
    expect(cache.parse(ne, d).where).toBeDefined();
    // The same text refused when the org disables negations: not answered from the entry above.
    expect(() => cache.parse(ne, d, { allowNegations: false })).toThrow(FaultError);
  });

  it('parses again for a changed definition (a new object)', () => {
    const cache = new ParsedListQueries();
    const raw = { where: JSON.stringify({ c_new: 'x' }) };
    expect(() => cache.parse(raw, def())).toThrow(FaultError);
    const changed = def();
    changed.properties.push({ name: 'c_new', type: 'String', indexed: true } as ObjectDef['properties'][number]);
    expect(cache.parse(raw, changed).where).toBeDefined();
  });

  it('refuses bad input every time, keeping nothing', () => {
    const cache = new ParsedListQueries();
    const d = def();
    for (let i = 0; i < 3; i++) expect(() => cache.parse({ limit: '0' }, d)).toThrow(FaultError);
  });

  it('shares frozen entries, so no request can change another one’s query', () => {
    const cache = new ParsedListQueries();
    const q = cache.parse({ where: where(1), sort: '{"c_name":1}' }, def());
    expect(Object.isFrozen(q)).toBe(true);
    expect(Object.isFrozen(q.sort)).toBe(true);
    expect(Object.isFrozen(q.where)).toBe(true);
    expect(() => {
      (q as { limit: number }).limit = 1;
    }).toThrow(TypeError);
  });

  it('keeps at most MAX_CACHED_PER_DEF entries per definition, and parses long arguments every time', () => {
    const cache = new ParsedListQueries();
    const d = def();
    const first = cache.parse({ where: where(0) }, d);
    for (let i = 1; i <= MAX_CACHED_PER_DEF; i++) cache.parse({ where: where(i) }, d);
    expect(cache.parse({ where: where(0) }, d)).not.toBe(first); // the oldest went out
    const long = { where: JSON.stringify({ c_name: { $in: Array.from({ length: 400 }, (_, i) => `v${i}`) } }) };
    expect(long.where.length).toBeGreaterThan(MAX_CACHED_ARGS_LENGTH);
    expect(cache.parse(long, d)).not.toBe(cache.parse(long, d));
  });
});

describe('ParsedAggregations', () => {
  const group = JSON.stringify([{ $group: { _id: 'c_name', n: { $count: '_id' } } }]);

  it('answers the same text with the same frozen parse, equal to a fresh one', () => {
    const cache = new ParsedAggregations();
    const d = def();
    const first = cache.parse({ pipeline: group }, d);
    expect(cache.parse({ pipeline: `${group}` }, d)).toBe(first);
    expect(first).toEqual(parseAggregation({ pipeline: group }, d));
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.stages[0])).toBe(true);
  });

  it('keys on the readable properties, the index rule and the negation setting', () => {
    const cache = new ParsedAggregations();
    const d = def();
    const all = cache.parse({ pipeline: group }, d);
    // The same text from a caller who may not read c_name: refused, not answered from the entry above.
    expect(() => cache.parse({ pipeline: group }, d, { allowed: ['c_count'] })).toThrow(FaultError);
    expect(cache.parse({ pipeline: group }, d, { allowed: ['c_name'] })).not.toBe(all);
    const unindexedMatch = JSON.stringify([{ $match: { c_other: 1 } }]);
    const withOther = def();
    withOther.properties.push({ name: 'c_other', type: 'Number' } as ObjectDef['properties'][number]);
    expect(() => cache.parse({ pipeline: unindexedMatch }, withOther)).toThrow(FaultError);
    expect(cache.parse({ pipeline: unindexedMatch }, withOther, { unindexed: true })).toBeDefined();
    const ne = JSON.stringify([{ $match: { c_count: { $ne: 1 } } }]);
    expect(cache.parse({ pipeline: ne }, d)).toBeDefined();
    expect(() => cache.parse({ pipeline: ne }, d, { allowNegations: false })).toThrow(FaultError);
  });

  it('keys on group, where and sort, and refuses pipeline beside them every time', () => {
    const cache = new ParsedAggregations();
    const d = def();
    const byName = cache.parse({ group: '{"_id":"c_name","n":{"$count":"_id"}}' }, d);
    const sorted = cache.parse({ group: '{"_id":"c_name","n":{"$count":"_id"}}', sort: '{"n":-1}' }, d);
    expect(sorted).not.toBe(byName);
    expect(sorted!.stages.length).toBeGreaterThan(byName!.stages.length);
    for (let i = 0; i < 2; i++) expect(() => cache.parse({ pipeline: group, where: '{}' }, d)).toThrow(FaultError);
  });

  it('parses decoded values every time, keeping only text', () => {
    const cache = new ParsedAggregations();
    const d = def();
    const decoded = JSON.parse(group) as unknown[];
    const first = cache.parse({ pipeline: decoded }, d);
    expect(cache.parse({ pipeline: decoded }, d)).not.toBe(first);
    expect(cache.parse({ pipeline: decoded }, d)).toEqual(first);
  });
});
