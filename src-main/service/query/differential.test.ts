/**
 * Differential tests: random records and random valid queries run through SQLite (compiled SQL)
 * and through the in-memory evaluator; both must return the same _ids in the same order and the
 * same hasMore (CONVENTIONS.md item 5).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ID_POOL, OID_POOL, openDifferentialDb, recordsOf, type Doc } from '../testing/differential-db.js';
import { readKeyColumns } from '../objects/key-columns.js';
import { runListQuery } from '../../../src-shared/query/evaluate.js';
import { parseListQuery, type RawListArgs } from '../../../src-shared/query/parse.js';
import { THING_DEF } from '../../../src-shared/query/testing/fixture-def.js';
import { compileListQuery } from './compile.js';

type Where = Record<string, unknown>;

const wellFormed = (s: string) => !/\p{Cs}/u.test(s);
const str = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      'a',
      'A',
      'ab',
      'b',
      's',
      'S',
      'Smith',
      'smith',
      'ſmith',
      'Kelvin',
      '\u212Aelvin',
      'k',
      'é',
      'É',
      '\u{1F600}',
      '\uFFFF',
      '\uE000',
      'z',
      'a.b',
      'x\ny',
      "O'Brien",
      'ß',
      'a\u0000b',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 5 }).filter(wellFormed) },
);
const num = fc.oneof(fc.constantFrom(0, -1, 1, 1.5, 2, -0.5, 100), fc.double({ noNaN: true, noDefaultInfinity: true }));
const int = fc.oneof(fc.constantFrom(0, 1, 2, -1, 3), fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER));
const date = fc.oneof(
  fc.constantFrom('2024-01-01T00:00:00.000Z', '2024-06-15T12:30:00.000Z', '1999-12-31T23:59:59.999Z'),
  fc
    .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
);
const oid = fc.constantFrom(...OID_POOL);
const ref = oid.map((id) => ({ _id: id, object: 'account', path: `/accounts/${id}` }));
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
    c_owner: ref,
    name: fc.record({ first: str, last: str }, { requiredKeys: [] }),
    c_enrollments: fc.array(enrollment, { maxLength: 3 }),
    created: date,
  },
  { requiredKeys: [] },
);

const records = recordsOf(record);

const REGEX_SOURCES = [
  '^s',
  '^S',
  '^sm',
  'mi',
  'h$',
  '^.',
  '^ſ',
  '^k',
  '^K',
  '^a|^b',
  '^a.*b',
  '^\\.',
  ' ^ s # comment',
  '^(?i)s',
  '[é]',
  '^\u{1F600}',
  '^$',
  '^Smith$',
  '^ab?',
  '^a+b',
  '.',
  '^x\\ny',
  "^O'",
  '(a|b)+$',
];
const regex = fc
  .tuple(fc.constantFrom(...REGEX_SOURCES), fc.subarray([...'imsx']))
  .map(([source, flags]) => `/${source}/${flags.join('')}`);

/** Operator expressions over one value type; `nullable` adds null operands where allowed. */
function valueOps(value: fc.Arbitrary<unknown>, withRegex: boolean): fc.Arbitrary<unknown> {
  const list = fc.array(fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }), {
    maxLength: 4,
  });
  return fc.oneof(
    value,
    fc.constant(null),
    fc.record({ $eq: fc.oneof(value, fc.constant(null)) }),
    fc.record({ $ne: fc.oneof(value, fc.constant(null)) }),
    fc.record({ $gt: value }),
    fc.record({ $gte: value }),
    fc.record({ $lt: value }),
    fc.record({ $lte: value }),
    fc.record({ $gte: value, $lt: value }),
    fc.record({ $in: list }),
    fc.record({ $nin: list }),
    fc.record({ $exists: fc.boolean() }),
    ...(withRegex ? [fc.record({ $regex: regex })] : []),
  );
}

const elementOps = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.record({ $all: fc.array(value, { maxLength: 3 }) }),
    fc.record({ $size: fc.nat({ max: 4 }) }),
    fc.record({
      $elemMatch: fc.record({ $gte: value, $lt: value }, { requiredKeys: [] }).filter((o) => Object.keys(o).length > 0),
    }),
  );

const fieldCondition: fc.Arbitrary<Where> = fc.oneof(
  valueOps(str, true).map((v) => ({ c_str: v })),
  valueOps(num, false).map((v) => ({ c_num: v })),
  valueOps(int, false).map((v) => ({ c_int: v })),
  valueOps(fc.boolean(), false).map((v) => ({ c_bool: v })),
  valueOps(date, false).map((v) => ({ c_date: v })),
  valueOps(date, false).map((v) => ({ created: v })),
  valueOps(oid, false).map((v) => ({ c_oid: v })),
  valueOps(oid, false).map((v) => ({ c_owner: v })),
  valueOps(fc.constantFrom(...ID_POOL), false).map((v) => ({ _id: v })),
  valueOps(str, true).map((v) => ({ 'name.first': v })),
  valueOps(str, true).map((v) => ({ 'name.last': v })),
  fc.oneof(valueOps(str, true), elementOps(str)).map((v) => ({ c_tags: v })),
  fc
    .oneof(valueOps(str, true), fc.record({ $all: fc.array(str, { maxLength: 2 }) }))
    .map((v) => ({ 'c_enrollments.c_course': v })),
  valueOps(int, false).map((v) => ({ 'c_enrollments.c_score': v })),
  fc
    .oneof(
      fc.record({ $size: fc.nat({ max: 3 }) }),
      fc.record({ $exists: fc.boolean() }),
      fc
        .record({ c_course: valueOps(str, true), c_score: valueOps(int, false) }, { requiredKeys: [] })
        .filter((o) => Object.keys(o).length > 0)
        .map((o) => ({ $elemMatch: o })),
    )
    .map((v) => ({ c_enrollments: v })),
);

const where: fc.Arbitrary<Where> = fc.letrec<{ cond: Where }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fieldCondition,
    fc.array(tie('cond'), { minLength: 1, maxLength: 3 }).map((cs) => ({ $and: cs })),
    fc.array(tie('cond'), { minLength: 1, maxLength: 3 }).map((cs) => ({ $or: cs })),
    fc.tuple(fieldCondition, fieldCondition).map(([a, b]) => ({ ...a, ...b })),
  ),
})).cond;

const SORTABLE = [
  'c_str',
  'c_num',
  'c_int',
  'c_bool',
  'c_date',
  'c_oid',
  'c_owner',
  'name.first',
  'name.last',
  'created',
  '_id',
];
const sort = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...SORTABLE),
  fc
    .uniqueArray(fc.tuple(fc.constantFrom(...SORTABLE), fc.constantFrom(1, -1)), { maxLength: 3, selector: ([k]) => k })
    .map((keys) => JSON.stringify(Object.fromEntries(keys))),
);

const listArgs = fc.record({
  where: fc.option(
    where.map((w) => JSON.stringify(w)),
    { nil: undefined },
  ),
  sort,
  skip: fc.option(fc.nat({ max: 6 }).map(String), { nil: undefined }),
  limit: fc.option(fc.integer({ min: 1, max: 12 }).map(String), { nil: undefined }),
});

/** Splits the `limit + 1` rows of a compiled query into the page and `hasMore`. */
function pageOf<T>(rows: readonly T[], limit: number): { data: T[]; hasMore: boolean } {
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}

function runBoth(docs: Doc[], args: RawListArgs) {
  // JSON round trip drops the undefined keys fast-check leaves in.
  const query = parseListQuery(JSON.parse(JSON.stringify(args)) as RawListArgs, THING_DEF);
  const db = openDifferentialDb(docs);
  try {
    const page = (table: string) => {
      const compiled = compileListQuery(query, { table, columns: readKeyColumns(db, table) });
      const rows = pageOf(db.prepare(compiled.sql).all(...compiled.params) as { _id: string }[], query.limit);
      return { ids: rows.data.map((r) => r._id), hasMore: rows.hasMore };
    };
    // Records go through JSON like storage does (drops -0 and the like) before the evaluator sees them.
    const memoryPage = runListQuery(JSON.parse(JSON.stringify(docs)) as Doc[], query);
    return {
      sql: page('things'),
      withKeyColumns: page('things_k'),
      memory: { ids: memoryPage.data.map((r) => r._id), hasMore: memoryPage.hasMore },
    };
  } finally {
    db.close();
  }
}

describe('SQL compiler agrees with the in-memory evaluator (on tables with and without key columns)', () => {
  it('on random records and random queries (same ids, same order, same hasMore)', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(records, listArgs, (docs, args) => {
        const { sql, withKeyColumns, memory } = runBoth(docs, args);
        expect(sql).toEqual(memory);
        expect(withKeyColumns).toEqual(memory);
        if (sql.ids.length > 0) nonEmpty++;
      }),
      { seed: 42, numRuns: 400 },
    );
    // Guard against a generator that only ever produces empty results (which would agree trivially).
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('on where-only queries over larger data, where most conditions select something', () => {
    const big = fc
      .array(record, { minLength: 30, maxLength: 40 })
      .map((rs) => rs.map((r, i) => ({ _id: ID_POOL[i] as string, ...r }) as Doc));
    fc.assert(
      fc.property(big, where, (docs, w) => {
        const { sql, withKeyColumns, memory } = runBoth(docs, {
          where: JSON.stringify(w),
          sort: undefined,
          skip: undefined,
          limit: '1000',
        });
        expect(sql).toEqual(memory);
        expect(withKeyColumns).toEqual(memory);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
