/**
 * Each expression operator on fixed records, with the value docs/query-semantics.md promises,
 * through SQL and through the evaluator.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parsePipeline } from '../../../../src-shared/query/pipeline/parse-pipeline.js';
import { pipelinePage, presentPipelineDocument } from '../../../../src-shared/query/pipeline/evaluate-pipeline.js';
import { recordProperties } from '../../../../src-shared/query/pipeline/shape.js';
import { THING_DEF } from '../../../../src-shared/query/testing/fixture-def.js';
import { compilePipeline } from './compile-pipeline.js';

const RECORD = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  c_str: 'Éa\u{1F600}bC',
  c_num: -2.5,
  c_int: 7,
  c_bool: true,
  c_date: '2024-03-10T13:45:07.089Z',
  c_tags: ['x', 'y'],
  name: { first: 'Ada', last: 'Lovelace' },
  c_owner: { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', object: 'account', path: '/accounts/bbbbbbbbbbbbbbbbbbbbbbbb' },
};

function both(expr: unknown): { sql: unknown; memory: unknown } {
  const pipeline = parsePipeline([{ $project: { v: expr } }], THING_DEF);
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE things (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
    const { _id, ...doc } = RECORD;
    db.prepare('INSERT INTO things VALUES (?, ?)').run(_id, JSON.stringify(doc));
    const compiled = compilePipeline(pipeline, {
      table: 'things',
      columns: new Map(),
      properties: recordProperties(THING_DEF, 'all'),
      pruned: false,
      skip: 0,
      limit: 10,
    });
    const row = db.prepare(compiled.sql).get(...compiled.params) as { doc: string };
    const sql = presentPipelineDocument(JSON.parse(row.doc) as Record<string, unknown>, 'c_thing').v;
    const memory = pipelinePage([RECORD], pipeline, 0, 10).data[0]!.v;
    return { sql: sql ?? null, memory: memory ?? null };
  } finally {
    db.close();
  }
}

const CASES: [string, unknown, unknown][] = [
  ['$add', { $add: ['c_int', 'c_num', 1] }, 5.5],
  ['$add with a missing value is null', { $add: ['c_int', { $size: 'c_enrollments' }] }, null],
  ['$subtract', { $subtract: ['c_int', 10] }, -3],
  ['$multiply', { $multiply: ['c_int', 'c_num'] }, -17.5],
  ['$divide', { $divide: ['c_int', 2] }, 3.5],
  ['$divide by zero is null', { $divide: ['c_int', 0] }, null],
  ['$mod keeps the sign of the dividend', { $mod: [{ $subtract: [0, 'c_int'] }, 3] }, -1],
  ['$abs', { $abs: 'c_num' }, 2.5],
  ['$ceil', { $ceil: 'c_num' }, -2],
  ['$floor', { $floor: 'c_num' }, -3],
  ['$trunc', { $trunc: 'c_num' }, -2],
  ['$sqrt of a negative is null', { $sqrt: 'c_num' }, null],
  ['$concat', { $concat: ['name.first', { $literal: ' ' }, 'name.last'] }, 'Ada Lovelace'],
  // An ObjectId (an _id, a reference's _id) is its hex text, as the original's $concat writes it.
  [
    '$concat of ObjectIds',
    { $concat: [{ $literal: 'p_' }, '_id', 'c_owner'] },
    'p_aaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbb',
  ],
  ['$concat with a missing value is null', { $concat: ['name.first', 'c_plain'] }, null],
  ['$substr counts code points', { $substr: ['c_str', 1, 3] }, 'a\u{1F600}b'],
  ['$substr with a negative length runs to the end', { $substr: ['c_str', 2, -1] }, '\u{1F600}bC'],
  ['$toLower is ASCII only', { $toLower: 'c_str' }, 'Éa\u{1F600}bc'],
  ['$toUpper is ASCII only', { $toUpper: 'name.first' }, 'ADA'],
  ['$year', { $year: 'c_date' }, 2024],
  ['$month', { $month: 'c_date' }, 3],
  ['$dayOfMonth', { $dayOfMonth: 'c_date' }, 10],
  ['$dayOfWeek (Sunday is 1)', { $dayOfWeek: 'c_date' }, 1],
  ['$dayOfYear', { $dayOfYear: 'c_date' }, 70],
  ['$week (weeks start on Sunday)', { $week: 'c_date' }, 10],
  ['$hour', { $hour: 'c_date' }, 13],
  ['$minute', { $minute: 'c_date' }, 45],
  ['$second', { $second: 'c_date' }, 7],
  ['$millisecond', { $millisecond: 'c_date' }, 89],
  [
    '$dateToString',
    { $dateToString: ['%Y-%m-%d %H:%M:%S.%L %j %w %U %%', 'c_date'] },
    '2024-03-10 13:45:07.089 070 0 10 %',
  ],
  ['$dateToString of a missing date is null', { $dateToString: { format: '%Y', date: 'created' } }, null],
  ['$cond', { $cond: { if: 'c_bool', then: 'c_int', else: 0 } }, 7],
  ['$cond on a zero number', { $cond: [{ $subtract: ['c_int', 7] }, 1, 2] }, 2],
  ['$ifNull', { $ifNull: ['c_plain', 'name.first'] }, 'Ada'],
  ['$eq', { $eq: ['c_int', 7] }, true],
  ['$ne with null', { $ne: ['c_plain', null] }, false],
  ['$gt against null (null is lowest)', { $gt: ['c_int', null] }, true],
  ['$lt on text by code point', { $lt: ['c_str', { $literal: 'z' }] }, false],
  ['$cmp', { $cmp: ['name.first', 'name.last'] }, -1],
  ['$and', { $and: ['c_bool', 'c_str'] }, true],
  ['$or', { $or: [false, 'c_plain'] }, false],
  ['$not', { $not: ['c_plain'] }, true],
  ['$size', { $size: 'c_tags' }, 2],
  ['a Reference stands for its _id', 'c_owner', 'bbbbbbbbbbbbbbbbbbbbbbbb'],
  ['$literal text starting with $', { $literal: '$x' }, '$x'],
  ['$number', { $number: '12.5' }, 12.5],
  ['$date', { $date: '2024-01-01' }, '2024-01-01T00:00:00.000Z'],
];

describe('expression operators (SQL and evaluator, with the documented value)', () => {
  it.each(CASES)('%s', (_name, expr, expected) => {
    const { sql, memory } = both(expr);
    expect(memory).toEqual(expected);
    expect(sql).toEqual(expected);
  });
});
