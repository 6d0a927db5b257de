import { describe, expect, it } from 'vitest';
import { FaultError } from '../../faults.js';
import { THING_DEF } from '../testing/fixture-def.js';
import { parseAggregation } from './list-arguments.js';

function faultOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof FaultError) return e.fault;
    throw e;
  }
  throw new Error('expected a fault');
}

describe('parseAggregation', () => {
  it('is a plain list without pipeline or group', () => {
    expect(parseAggregation({ where: '{"c_str":"a"}', sort: 'c_str' }, THING_DEF)).toBeUndefined();
  });

  it('reads pipeline as text or as a decoded array', () => {
    const text = parseAggregation({ pipeline: '[{"$count":"n"}]' }, THING_DEF);
    expect(text).toEqual(parseAggregation({ pipeline: [{ $count: 'n' }] }, THING_DEF));
    expect(text?.stages).toEqual([{ kind: 'count', name: 'n' }]);
  });

  it('refuses pipeline with where, sort, group, paging bounds or a selection, as the original does', () => {
    for (const extra of [{ where: '{}' }, { sort: 'c_str' }, { group: 'c_str' }, { startingAfter: 'x' }]) {
      expect(faultOf(() => parseAggregation({ pipeline: '[]', ...extra }, THING_DEF)).reason).toMatch(
        /incompatible with pipeline/,
      );
    }
    expect(faultOf(() => parseAggregation({ pipeline: '[]', expand: ['c_owner'] }, THING_DEF)).path).toBe('expand');
  });

  it('refuses nativePipeline and map by name', () => {
    expect(faultOf(() => parseAggregation({ nativePipeline: [{ $sample: {} }] }, THING_DEF))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      path: 'nativePipeline',
    });
    expect(faultOf(() => parseAggregation({ map: 'c_tags' }, THING_DEF))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      path: 'map',
    });
  });

  it('reads group with where before it and a sort by a named grouping after it', () => {
    const p = parseAggregation(
      { group: '{"_id":"c_str","total":{"$sum":"c_int"}}', where: '{"c_int":{"$gt":0}}', sort: '{"total":-1}' },
      THING_DEF,
    );
    expect(p?.stages.map((s) => s.kind)).toEqual(['match', 'group', 'sort']);
    expect(parseAggregation({ group: 'c_str', sort: '_id' }, THING_DEF)?.stages.map((s) => s.kind)).toEqual([
      'group',
      'sort',
    ]);
    expect(faultOf(() => parseAggregation({ group: '{"_id":"c_str"', sort: 'x' }, THING_DEF)).path).toBe('group');
  });
});
