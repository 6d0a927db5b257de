import { describe, expect, it } from 'vitest';
import { FaultError } from '../../faults.js';
import { THING_DEF } from '../testing/fixture-def.js';
import { parseGroupArguments, parsePipeline } from './parse-pipeline.js';

function faultOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof FaultError) return e.fault;
    throw e;
  }
  throw new Error('expected a fault');
}

const parse = (p: unknown, options = {}) => parsePipeline(p, THING_DEF, options);

describe('parsePipeline', () => {
  it('takes JSON text or the decoded array, and stages given as JSON text', () => {
    const text = parse('[{"$group":{"_id":"c_str","n":{"$sum":1}}}]');
    const array = parse([{ $group: { _id: 'c_str', n: { $sum: 1 } } }]);
    const stageText = parse(['{"$group":{"_id":"c_str","n":{"$sum":1}}}']);
    expect(text).toEqual(array);
    expect(stageText).toEqual(array);
    expect(array.output.map((p) => [p.name, p.type])).toEqual([
      ['_id', 'String'],
      ['n', 'Number'],
    ]);
  });

  it('refuses more than 20 stages, bad JSON and non-arrays', () => {
    expect(faultOf(() => parse(Array.from({ length: 21 }, () => ({ $limit: 1 })))).reason).toMatch(
      /Maximum stages \(20\)/,
    );
    expect(faultOf(() => parse('[{"$limit":1}')).errCode).toBe('service.invalidArgument.query');
    expect(faultOf(() => parse({ $limit: 1 })).reason).toBe('Array expected for pipeline.');
  });

  it('names an unknown stage and refuses a known but unsupported one by name', () => {
    expect(faultOf(() => parse([{ $frobnicate: {} }]))).toMatchObject({
      errCode: 'service.invalidArgument.query',
      path: 'pipeline[0].$frobnicate',
    });
    expect(faultOf(() => parse([{ $lookup: { from: 'x' } }]))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      reason: 'The pipeline stage $lookup is not supported.',
      path: 'pipeline[0].$lookup',
    });
    expect(faultOf(() => parse([{ $match: {}, $limit: 1 }])).reason).toMatch(/single key/);
  });

  it('writes property paths without $; a $-string is refused with the way to write it', () => {
    const f = faultOf(() => parse([{ $group: { _id: '$c_str', n: { $sum: 1 } } }]));
    expect(f.path).toBe('pipeline[0].$group._id');
    expect(f.reason).toMatch(/without \$ \(c_str\)/);
  });

  it('applies the index rule to $match and $sort before any reshaping stage only', () => {
    expect(faultOf(() => parse([{ $match: { c_plain: 'x' } }])).reason).toMatch(/not indexed/);
    expect(faultOf(() => parse([{ $sort: { c_plain: 1 } }])).reason).toMatch(/indexed properties/);
    expect(faultOf(() => parse([{ $match: { c_plain: 'x' } }])).path).toBe('pipeline[0].$match.c_plain');
    // After a $group the stage's output is matched and sorted freely.
    parse([{ $group: { _id: 'c_plain', n: { $sum: 1 } } }, { $match: { _id: 'x' } }, { $sort: { n: -1 } }]);
    // The privileged unindexed option lifts the rule.
    parse([{ $match: { c_plain: 'x' } }, { $sort: { c_plain: 1 } }], { unindexed: true });
  });

  it('refuses reading what the caller scopes do not allow, as lists refuse matching it', () => {
    const allowed = ['c_str', 'name.first'];
    expect(faultOf(() => parse([{ $group: { _id: 'c_int', n: { $sum: 1 } } }], { allowed }))).toMatchObject({
      errCode: 'service.accessDenied.scope',
      path: 'pipeline[0].$group._id',
    });
    expect(faultOf(() => parse([{ $project: { name: 1 } }], { allowed })).errCode).toBe('service.accessDenied.scope');
    expect(faultOf(() => parse([{ $match: { c_int: 1 } }], { allowed })).errCode).toBe('service.accessDenied.scope');
    parse([{ $group: { _id: 'name.first', n: { $count: 'c_str' } } }], { allowed });
    // An unknown path stays an ordinary query fault.
    expect(faultOf(() => parse([{ $project: { c_nope: 1 } }], { allowed })).errCode).toBe(
      'service.invalidArgument.query',
    );
  });

  it('checks $group as the original does', () => {
    expect(faultOf(() => parse([{ $group: { n: { $sum: 1 } } }])).reason).toMatch(/must contain an _id/);
    expect(faultOf(() => parse([{ $group: { _id: null } }])).reason).toMatch(/at least one expression/);
    expect(faultOf(() => parse([{ $group: { _id: null, s: { $stdDevPop: 'c_num' } } }]))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      path: 'pipeline[0].$group.s.$stdDevPop',
    });
    expect(faultOf(() => parse([{ $group: { _id: null, s: { $sum: 'c_str' } } }])).reason).toMatch(/takes numbers/);
    expect(faultOf(() => parse([{ $group: { _id: 'c_tags', n: { $sum: 1 } } }])).reason).toMatch(/single values/);
    expect(faultOf(() => parse([{ $group: { _id: null, s: { $sum: 1, $avg: 'c_int' } } }])).reason).toMatch(
      /single supported/,
    );
    // The group argument's bare name form.
    expect(parse([{ $group: 'c_str' }]).stages[0]).toMatchObject({ kind: 'group', key: { kind: 'value' } });
  });

  it('checks $project and $addFields', () => {
    expect(faultOf(() => parse([{ $project: { _id: 0, c_str: 1 } }])).reason).toMatch(/_id field can only be 1/);
    expect(faultOf(() => parse([{ $project: { c_str: 0 } }])).reason).toMatch(/at least one output field/);
    expect(faultOf(() => parse([{ $project: { x: 5 } }])).reason).toMatch(/\$literal/);
    expect(faultOf(() => parse([{ $project: { 'c_enrollments.c_course': 1 } }])).reason).toMatch(
      /\$unwind c_enrollments/,
    );
    expect(faultOf(() => parse([{ $addFields: { 'c_str.x': { $literal: 1 } } }])).reason).toMatch(/not a document/);
    expect(faultOf(() => parse([{ $project: { '1x': 'c_str' } }])).reason).toMatch(/not a valid output name/);
  });

  it('type-checks operators and refuses what it does not support by name', () => {
    expect(faultOf(() => parse([{ $project: { x: { $add: ['c_date', 1] } } }]))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      path: 'pipeline[0].$project.x.$add[0]',
    });
    expect(faultOf(() => parse([{ $project: { x: { $gt: ['c_str', 1] } } }])).reason).toMatch(/one type/);
    expect(faultOf(() => parse([{ $project: { x: { $setUnion: ['c_tags', 'c_tags'] } } }])).reason).toBe(
      'The expression operator $setUnion is not supported.',
    );
    expect(faultOf(() => parse([{ $project: { x: { $frob: 1 } } }])).reason).toBe('Unknown expression operator $frob.');
    expect(faultOf(() => parse([{ $project: { x: { $dateToString: ['%G', 'c_date'] } } }])).reason).toMatch(/%G/);
    expect(faultOf(() => parse([{ $project: { x: { $mod: ['c_num', 2] } } }])).reason).toMatch(/whole numbers/);
    expect(faultOf(() => parse([{ $project: { x: { $concat: ['c_str'], c_str: 1 } } }])).reason).toMatch(/mix/);
  });

  // A trigger's if alone evaluates these (parse-evaluator-only.ts); SQL has no meaning for them.
  it.each([
    [{ $toBool: 'c_str' }, 'The expression operator $toBool is supported only in a trigger', '$toBool'],
    [{ $find: { input: 'c_tags', cond: true } }, 'The expression operator $find is supported only', '$find'],
    [{ $reduce: { input: 'c_tags', initialValue: '', in: 'c_str' } }, 'operator $reduce is supported only', '$reduce'],
    [{ $cache: { $literal: 'k' } }, 'The expression operator $cache is supported only', '$cache'],
    [{ $let: { vars: { a: 1 }, in: 'c_str' } }, 'The expression operator $let is supported only', '$let'],
    [{ $$variable: 'ROOT' }, 'Variables are supported only', '$$variable'],
  ])('refuses the evaluator-only %j by name', (expr, reason, op) => {
    expect(faultOf(() => parse([{ $project: { x: expr } }]))).toMatchObject({
      errCode: 'service.unsupportedOperation',
      reason: expect.stringContaining(reason),
      path: `pipeline[0].$project.x.${op}`,
    });
  });

  it('refuses variables written as the original writes them', () => {
    expect(faultOf(() => parse([{ $project: { x: '$$ROOT' } }])).reason).toMatch(/written without \$/);
  });

  it('bounds expression depth (20) and keys (100)', () => {
    let deep: unknown = 'c_int';
    for (let i = 0; i < 25; i++) deep = { $abs: deep };
    expect(faultOf(() => parse([{ $project: { x: deep } }])).reason).toMatch(/deeper than 20/);
    const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, 'c_str']));
    expect(faultOf(() => parse([{ $project: wide }])).reason).toMatch(/at most 100 keys/);
  });

  it('stops at the depth bound on a decoded body nested 100,000 deep (no stack overflow)', () => {
    let deep: unknown = 'c_int';
    for (let i = 0; i < 100_000; i++) deep = { $abs: [deep] };
    expect(faultOf(() => parse([{ $project: { x: deep } }])).reason).toMatch(/deeper than 20/);
    let where: unknown = { c_int: 1 };
    for (let i = 0; i < 100_000; i++) where = { $and: [where] };
    expect(faultOf(() => parse([{ $match: where }])).errCode).toBe('service.invalidArgument.query');
    let doc: unknown = 1;
    for (let i = 0; i < 100_000; i++) doc = { a: doc };
    expect(faultOf(() => parse([{ $project: { x: doc } }])).errCode).toBe('service.invalidArgument.query');
  });

  it('bounds $skip and $limit and refuses $unwind options', () => {
    expect(faultOf(() => parse([{ $limit: 0 }])).reason).toMatch(/between 1 and 500000/);
    expect(faultOf(() => parse([{ $skip: 500001 }])).reason).toMatch(/between 0 and 500000/);
    expect(faultOf(() => parse([{ $unwind: { path: 'c_tags', preserveNullAndEmptyArrays: true } }]))).toMatchObject({
      errCode: 'service.unsupportedOperation',
    });
    expect(faultOf(() => parse([{ $unwind: 'c_str' }])).reason).toMatch(/not an array/);
  });

  it('reads where, group and a sort by a named grouping together (the group list argument)', () => {
    const p = parseGroupArguments(
      { where: { c_int: { $gt: 1 } }, group: { _id: 'c_str', total: { $sum: 'c_int' } }, sort: { total: -1 } },
      THING_DEF,
    );
    expect(p.stages.map((s) => s.kind)).toEqual(['match', 'group', 'sort']);
    expect(faultOf(() => parseGroupArguments({ group: 'c_str', sort: { nope: 1 } }, THING_DEF)).path).toBe('sort.nope');
    expect(
      faultOf(() =>
        parseGroupArguments({ group: { _id: 'c_plain', n: { $sum: 1 } }, where: { c_plain: 'x' } }, THING_DEF),
      ).path,
    ).toBe('where.c_plain');
  });
});
