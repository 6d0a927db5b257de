/**
 * Differential tests of aggregation pipelines: random records and random valid pipelines run
 * through SQLite (compiled SQL, on tables with and without key columns) and through the in-memory
 * evaluator; both must answer the same documents in the same order, and the same hasMore.
 *
 * Numbers are drawn from values binary floating point holds exactly (integers, halves, quarters),
 * so sums and averages do not depend on the order of additions: any difference is a semantic one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OID_POOL, openDifferentialDb, recordsOf, type Doc } from '../../testing/differential-db.js';
import { readKeyColumns } from '../../objects/key-columns.js';
import { parsePipeline } from '../../../../src-shared/query/pipeline/parse-pipeline.js';
import {
  pipelinePage,
  presentPipelineDocument,
  presentPipelineText,
} from '../../../../src-shared/query/pipeline/evaluate-pipeline.js';
import { recordProperties } from '../../../../src-shared/query/pipeline/shape.js';
import { THING_DEF } from '../../../../src-shared/query/testing/fixture-def.js';
import type { AllowedProperties } from '../../../../src-shared/scopes/property-path.js';
import { compilePipeline } from './compile-pipeline.js';

type J = unknown;

const str = fc.constantFrom(
  '',
  'a',
  'A',
  'ab',
  'b',
  'Smith',
  'smith',
  'é',
  'É',
  'Kelvin',
  '\u{1F600}x',
  'z',
  "O'Brien",
  'ß',
);
const num = fc.constantFrom(0, -1, 1, 1.5, 2.25, -0.5, 100, 3, -7.75);
const int = fc.constantFrom(0, 1, 2, -1, 3, 7, -9, 16);
const date = fc.oneof(
  fc.constantFrom(
    '2024-01-01T00:00:00.000Z',
    '2024-06-15T12:30:05.250Z',
    '1999-12-31T23:59:59.999Z',
    '2023-01-01T00:00:00.000Z',
    '0001-01-01T00:00:00.000Z',
  ),
  fc
    .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
);
const oid = fc.constantFrom(...OID_POOL);
const enrollment = fc.record(
  { c_course: str, c_score: int, c_codes: fc.array(str, { maxLength: 2 }) },
  { requiredKeys: [] },
);
const record = fc.record(
  {
    c_str: str,
    c_num: num,
    c_int: int,
    c_bool: fc.boolean(),
    c_date: date,
    c_oid: oid,
    c_tags: fc.array(str, { maxLength: 4 }),
    c_owner: oid.map((id) => ({ _id: id, object: 'account', path: `/accounts/${id}` })),
    name: fc.record({ first: str, last: str }, { requiredKeys: [] }),
    c_enrollments: fc.array(enrollment, { maxLength: 3 }),
    created: date,
  },
  { requiredKeys: [] },
);
const records = recordsOf(record);

// Expressions over the records, by the type they give.
const numberExpr: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom('c_int', 'c_num', { $size: 'c_tags' }, { $year: 'c_date' }, { $month: 'created' }),
  fc.constantFrom(
    { $dayOfMonth: 'c_date' },
    { $dayOfWeek: 'c_date' },
    { $dayOfYear: 'created' },
    { $week: 'c_date' },
    { $hour: 'c_date' },
    { $millisecond: 'c_date' },
    { $abs: 'c_num' },
    { $floor: 'c_num' },
    { $ceil: 'c_num' },
    { $trunc: 'c_num' },
    { $sqrt: 'c_int' },
  ),
  fc
    .tuple(
      fc.constantFrom('$add', '$subtract', '$multiply', '$divide'),
      fc.constantFrom('c_int', 'c_num'),
      fc.oneof(num, fc.constant('c_int')),
    )
    .map(([op, a, b]) => ({ [op]: [a, b] })),
  fc.tuple(int).map(([k]) => ({ $mod: ['c_int', k] })),
  fc.tuple(int).map(([k]) => ({ $cond: [{ $gt: ['c_int', k] }, 'c_num', { $literal: k }] })),
  fc.tuple(num).map(([k]) => ({ $ifNull: ['c_num', k] })),
  fc.constant({ $cmp: ['c_str', 'name.last'] }),
);
const stringExpr: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom('c_str', 'name.last', 'name.first', { $toLower: 'c_str' }, { $toUpper: 'name.last' }),
  fc.tuple(fc.nat({ max: 3 }), fc.integer({ min: -1, max: 3 })).map(([s, l]) => ({ $substr: ['c_str', s, l] })),
  fc
    .constantFrom('%Y-%m', '%d/%m/%Y %H:%M:%S.%L', '%j %w %U', '100%% %Y')
    .map((f) => ({ $dateToString: [f, 'c_date'] })),
  fc.constant({ $concat: ['name.first', { $literal: ' ' }, 'name.last'] }),
  fc.constant({ $cond: [{ $eq: ['c_bool', true] }, 'c_str', { $literal: 'no' }] }),
  fc.constant({ $ifNull: ['c_str', 'name.last'] }),
);
const boolExpr: fc.Arbitrary<J> = fc.oneof(
  fc.constant('c_bool'),
  int.map((k) => ({ $gt: ['c_int', k] })),
  num.map((k) => ({ $lte: ['c_num', k] })),
  fc.constant({ $and: ['c_bool', { $lt: ['c_num', 1] }] }),
  fc.constant({ $or: ['c_int', 'c_str'] }),
  fc.constant({ $not: ['c_tags'] }),
  str.map((s) => ({ $ne: ['c_str', { $literal: s }] })),
  fc.constant({ $eq: ['c_date', 'created'] }),
);
const otherExpr: fc.Arbitrary<J> = fc.constantFrom('c_date', 'created', 'c_oid', 'c_owner', '_id', {
  $ifNull: ['c_date', 'created'],
});
const scalarExpr = fc.oneof(numberExpr, stringExpr, boolExpr, otherExpr);

const headMatch: fc.Arbitrary<J> = fc.oneof(
  int.map((k) => ({ c_int: { $gte: k } })),
  str.map((s) => ({ c_str: s })),
  fc.boolean().map((b) => ({ c_bool: b })),
  str.map((s) => ({ c_tags: s })),
  date.map((d) => ({ created: { $lt: d } })),
  fc.constant({ 'name.last': { $exists: true } }),
);

const accumulators: [string, fc.Arbitrary<J>, 'number' | 'any' | 'json'][] = [
  [
    'count',
    fc.constantFrom({ $count: '_id' }, { $count: 'c_tags' }, { $count: 'c_str' }, { $sum: 1 }, { $sum: 2.5 }),
    'number',
  ],
  ['sum', numberExpr.map((e) => ({ $sum: e })), 'number'],
  ['avg', numberExpr.map((e) => ({ $avg: e })), 'number'],
  ['min', scalarExpr.map((e) => ({ $min: e })), 'any'],
  ['max', scalarExpr.map((e) => ({ $max: e })), 'any'],
  [
    'first',
    fc.oneof(scalarExpr, fc.constantFrom('name', 'c_tags', 'c_enrollments')).map((e) => ({ $first: e })),
    'json',
  ],
  ['last', fc.oneof(scalarExpr, fc.constant('name')).map((e) => ({ $last: e })), 'json'],
  ['push', fc.oneof(scalarExpr, fc.constant('name')).map((e) => ({ $push: e })), 'json'],
  ['set', scalarExpr.map((e) => ({ $addToSet: e })), 'json'],
];

const groupKey: fc.Arbitrary<J> = fc.oneof(
  fc.constant(null),
  scalarExpr,
  fc.tuple(scalarExpr, scalarExpr).map(([a, b]) => ({ a, b })),
);

const cut: fc.Arbitrary<J[]> = fc.array(
  fc.oneof(
    fc.nat({ max: 4 }).map((n) => ({ $skip: n })),
    fc.integer({ min: 1, max: 6 }).map((n) => ({ $limit: n })),
  ),
  { maxLength: 2 },
);

const groupPipeline = fc
  .tuple(
    fc.option(headMatch, { nil: undefined }),
    groupKey,
    fc
      .subarray(accumulators, { minLength: 1, maxLength: 4 })
      .chain((accs) => fc.tuple(...accs.map(([name, spec, kind]) => spec.map((s) => [name, s, kind] as const)))),
    fc.boolean(),
    int,
    cut,
  )
  .map(([match, key, accs, sortByAcc, k, cuts]) => {
    const group: Record<string, J> = { _id: key };
    for (const [name, spec] of accs) group[name] = spec;
    const numeric = accs.find(([, , kind]) => kind === 'number');
    const stages: J[] = [...(match ? [{ $match: match }] : []), { $group: group }];
    if (numeric) stages.push({ $match: { [numeric[0]]: { $gte: k } } });
    if (sortByAcc && numeric) stages.push({ $sort: { [numeric[0]]: -1 } });
    return [...stages, ...cuts];
  });

const projectPipeline = fc
  .tuple(
    fc.option(headMatch, { nil: undefined }),
    fc.option(fc.constantFrom({ c_int: 1 }, { created: -1 }, { 'name.last': 1, c_str: -1 }), { nil: undefined }),
    cut,
    fc.constantFrom('$project', '$addFields'),
    fc.subarray(['c_str', 'name', 'name.first', 'c_tags', 'c_owner', 'c_enrollments'], { maxLength: 3 }),
    fc.array(fc.oneof(scalarExpr), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([match, sort, cuts, kind, includes, exprs, sortOut]) => {
    const spec: Record<string, J> = {};
    if (kind === '$project') for (const p of includes) spec[p] = 1;
    exprs.forEach((e, i) => (spec[`x${i}`] = e));
    if (kind === '$addFields') spec['name.full'] = { $concat: ['name.first', 'name.last'] };
    if (kind === '$project' && includes.includes('name') && includes.includes('name.first')) delete spec['name.first'];
    return [
      ...(match ? [{ $match: match }] : []),
      ...(sort ? [{ $sort: sort }] : []),
      ...cuts,
      { [kind]: spec },
      ...(sortOut ? [{ $sort: { x0: 1 } }] : []),
      { $match: { x0: { $exists: true } } },
    ];
  });

const unwindPipeline = fc
  .tuple(fc.option(headMatch, { nil: undefined }), fc.constantFrom('c_tags', 'c_enrollments'), fc.nat({ max: 3 }), cut)
  .map(([match, path, follow, cuts]) => {
    const stages: J[] = [...(match ? [{ $match: match }] : []), { $unwind: path }];
    const element = path === 'c_tags' ? 'c_tags' : 'c_enrollments.c_course';
    if (follow === 0) stages.push({ $group: { _id: element, n: { $sum: 1 }, ids: { $push: '_id' } } });
    if (follow === 1) stages.push({ $sortByCount: element });
    if (follow === 2 && path === 'c_enrollments') {
      stages.push(
        { $sort: { 'c_enrollments.c_score': -1 } },
        { $project: { s: 'c_enrollments.c_score', c: 'c_enrollments.c_codes' } },
      );
    }
    return [...stages, ...cuts];
  });

const otherPipeline: fc.Arbitrary<J[]> = fc.oneof<fc.Arbitrary<J[]>[]>(
  fc.option(headMatch, { nil: undefined }).map((m) => [...(m ? [{ $match: m }] : []), { $count: 'n' }]),
  scalarExpr.map((e) => [{ $sortByCount: e }]),
  fc.tuple(cut, cut).map(([a, b]) => [{ $sort: { c_num: 1 } }, ...a, { $sort: { c_str: -1 } }, ...b]),
  fc.constant([] as J[]),
  fc.constant([{ $group: { _id: 'c_bool', t: { $push: 'c_str' } } }, { $unwind: 't' }, { $sort: { t: 1 } }]),
  fc.constant([
    { $group: { _id: null, t: { $addToSet: 'c_int' } } },
    { $unwind: 't' },
    { $group: { _id: { $mod: ['t', 3] }, n: { $sum: 1 } } },
  ]),
  int.map((k) => [{ $unwind: 'c_enrollments' }, { $match: { 'c_enrollments.c_score': { $gt: k } } }, { $count: 'n' }]),
  fc.constant([
    { $addFields: { d: { $dayOfWeek: 'created' } } },
    { $sort: { d: -1 } },
    { $limit: 3 },
    { $project: { d: 1 } },
  ]),
);

const pipelines = fc.oneof(groupPipeline, projectPipeline, unwindPipeline, otherPipeline);

/** JSON round trip: -0 and 0 are one number in the API's answers. */
const normal = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

function runBoth(docs: Doc[], raw: J[], skip: number, limit: number, allowed: AllowedProperties = 'all') {
  const pipeline = parsePipeline(JSON.parse(JSON.stringify(raw)), THING_DEF, { allowed });
  const properties = recordProperties(THING_DEF, allowed);
  const pruned = allowed !== 'all';
  const db = openDifferentialDb(docs);
  try {
    const page = (table: string) => {
      const compiled = compilePipeline(pipeline, {
        table,
        columns: readKeyColumns(db, table),
        properties,
        pruned,
        skip,
        limit,
      });
      const rows = db.prepare(compiled.sql).all(...compiled.params) as { doc: string }[];
      const data = rows.slice(0, limit).map((r) => {
        // The service writes the text (presentPipelineText); it must say what the objects say.
        const text = JSON.parse(presentPipelineText(r.doc, 'c_thing')) as unknown;
        expect(text).toEqual(presentPipelineDocument(JSON.parse(r.doc) as Doc, 'c_thing'));
        return text;
      });
      return normal({ data, hasMore: rows.length > limit });
    };
    const records = JSON.parse(JSON.stringify(docs)) as Doc[];
    const memory = normal(pipelinePage(records, pipeline, skip, limit, pruned ? properties : undefined));
    return { sql: page('things'), withKeyColumns: page('things_k'), memory };
  } finally {
    db.close();
  }
}

describe('pipelines: SQL agrees with the in-memory evaluator', () => {
  it('on random records and random pipelines (same documents, same order, same hasMore)', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(records, pipelines, fc.nat({ max: 3 }), fc.integer({ min: 1, max: 12 }), (docs, raw, skip, limit) => {
        const { sql, withKeyColumns, memory } = runBoth(docs, raw, skip, limit);
        expect(sql).toEqual(memory);
        expect(withKeyColumns).toEqual(memory);
        if ((memory as { data: unknown[] }).data.length > 0) nonEmpty++;
      }),
      { seed: 42, numRuns: 500 },
    );
    expect(nonEmpty).toBeGreaterThan(150);
  });

  it('on documents a scope-limited caller reads (only the readable properties, inside documents too)', () => {
    // name.first of name, all of c_tags, the whole c_enrollments array is not allowed in part.
    const allowed = ['c_str', 'c_int', 'name.first', 'c_tags', 'created', 'c_enrollments.c_course'];
    const readable = fc.constantFrom<J[]>(
      [],
      [{ $addFields: { x: { $add: ['c_int', 1] } } }],
      [{ $unwind: 'c_tags' }, { $sort: { c_tags: 1 } }],
      [{ $project: { 'name.first': 1, c_str: 1 } }],
      [{ $group: { _id: 'name.first', n: { $sum: 1 }, s: { $push: 'c_str' } } }],
      [
        { $match: { created: { $exists: true } } },
        { $addFields: { y: 'c_str' } },
        { $match: { name: { $exists: true } } },
      ],
    );
    fc.assert(
      fc.property(records, readable, fc.integer({ min: 1, max: 30 }), (docs, raw, limit) => {
        const { sql, withKeyColumns, memory } = runBoth(docs, raw, 0, limit, allowed);
        expect(sql).toEqual(memory);
        expect(withKeyColumns).toEqual(memory);
        const shown = ['_id', 'object', 'x', 'y', 'n', 's', 'c_str', 'c_int', 'name', 'c_tags', 'created'];
        for (const d of (memory as { data: Record<string, unknown>[] }).data) {
          expect(Object.keys(d).filter((k) => !shown.includes(k))).toEqual([]);
          const name = d.name as Record<string, unknown> | undefined;
          if (name && raw.length > 0 && !('$group' in (raw[0] as object)))
            expect(Object.keys(name)).not.toContain('last');
        }
      }),
      { seed: 11, numRuns: 150 },
    );
  });
});
