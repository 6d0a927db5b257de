import Database from 'better-sqlite3';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { THING_DEF } from '../../../src-shared/query/testing/fixture-def.js';
import { compileListQuery } from './compile.js';
import { assertSafePath, propertyExpression } from './expressions.js';
import { registerQueryFunctions } from './functions.js';

const X = (p: string) => `json_extract(doc, '$.${p}')`;

function compileWhereOf(where: unknown) {
  const { sql, params } = compileListQuery(parseListQuery({ where: JSON.stringify(where) }, THING_DEF), {
    table: 'things',
  });
  const m = /WHERE (.*) ORDER BY/.exec(sql);
  return { where: m?.[1], params: params.slice(0, -1) }; // the last parameter is the skip
}

describe('propertyExpression', () => {
  it('maps _id to its column and other paths to json_extract', () => {
    expect(propertyExpression('_id')).toBe('_id');
    expect(propertyExpression('name.last')).toBe("json_extract(doc, '$.name.last')");
  });
  it.each(["a'b", 'a.b c', 'a..b', "x') OR 1=1 --", '$where', ''])('refuses unsafe path %j', (path) => {
    expect(() => propertyExpression(path)).toThrow(/unsafe property path/);
    expect(() => assertSafePath(path)).toThrow();
  });
});

describe('compileListQuery: statement shape', () => {
  it('defaults to _id descending, fetches limit + 1 (a literal: SQLite plans it better) and binds skip', () => {
    const q = parseListQuery({ limit: '5', skip: '10' }, THING_DEF);
    expect(compileListQuery(q, { table: 'things' })).toEqual({
      sql: 'SELECT _id, doc FROM "things" ORDER BY _id DESC LIMIT 6 OFFSET ?',
      params: [10],
    });
  });
  it('refuses to write a limit that is not a non-negative integer', () => {
    const q = { ...parseListQuery({}, THING_DEF), limit: 1.5 } as ReturnType<typeof parseListQuery>;
    expect(() => compileListQuery(q, { table: 'things' })).toThrow(/Invalid row limit/);
  });
  it('appends _id ascending as tiebreaker to the caller sort', () => {
    const q = parseListQuery({ sort: '{"name.last":1,"name.first":-1}' }, THING_DEF);
    expect(compileListQuery(q, { table: 'things' }).sql).toContain(
      `ORDER BY ${X('name.last')} ASC, ${X('name.first')} DESC, _id DESC`,
    );
  });
  it('does not append _id when the sort already names it', () => {
    const q = parseListQuery({ sort: '{"c_int":-1,"_id":-1}' }, THING_DEF);
    expect(compileListQuery(q, { table: 'things' }).sql).toContain(`ORDER BY ${X('c_int')} DESC, _id DESC LIMIT`);
  });
  it('sorts references by their _id', () => {
    const q = parseListQuery({ sort: 'c_owner' }, THING_DEF);
    expect(compileListQuery(q, { table: 'things' }).sql).toContain(`ORDER BY ${X('c_owner._id')} ASC, _id ASC`);
  });
  it('AND-s extra conditions after the query, keeping parameter order', () => {
    const q = parseListQuery({ where: '{"c_str":"a"}' }, THING_DEF);
    const out = compileListQuery(q, { table: 'things', extraWhere: [{ sql: 'acl_level(doc) >= ?', params: [3] }] });
    expect(out.sql).toContain(`WHERE (${X('c_str')} = ? AND (acl_level(doc) >= ?)) ORDER BY`);
    expect(out.params).toEqual(['a', 3, 0]);
  });
  it('refuses an unsafe table name', () => {
    expect(() => compileListQuery(parseListQuery({}, THING_DEF), { table: 'x"; DROP TABLE y; --' })).toThrow(
      /Invalid table name/,
    );
  });
});

type Case = [name: string, where: unknown, sql: string, params: unknown[]];
const EACH = (p: string, alias = 'j1') => `json_each(doc, '$.${p}') AS ${alias}`;
const cases: Case[] = [
  ['implicit $eq', { c_str: 'a' }, `${X('c_str')} = ?`, ['a']],
  ['$eq null = missing', { c_str: null }, `${X('c_str')} IS NULL`, []],
  ['$ne is NULL-safe', { c_str: { $ne: 'a' } }, `${X('c_str')} IS NOT ?`, ['a']],
  ['$ne null = present', { c_str: { $ne: null } }, `${X('c_str')} IS NOT NULL`, []],
  ['$gt', { c_int: { $gt: 3 } }, `${X('c_int')} > ?`, [3]],
  ['$gte/$lt on one path', { c_num: { $gte: 1, $lt: 2.5 } }, `(${X('c_num')} >= ? AND ${X('c_num')} < ?)`, [1, 2.5]],
  [
    '$lte date normalised',
    { created: { $lte: '2024-05-01T12:00:00+02:00' } },
    `${X('created')} <= ?`,
    ['2024-05-01T10:00:00.000Z'],
  ],
  ['boolean bound as 1', { c_bool: true }, `${X('c_bool')} = ?`, [1]],
  ['boolean bound as 0', { c_bool: { $ne: false } }, `${X('c_bool')} IS NOT ?`, [0]],
  ['_id uses the column, lower-cased', { _id: 'ABCDEFABCDEFABCDEFABCDEF' }, '_id = ?', ['abcdefabcdefabcdefabcdef']],
  [
    'reference matches its _id',
    { c_owner: '0123456789abcdef01234567' },
    `${X('c_owner._id')} = ?`,
    ['0123456789abcdef01234567'],
  ],
  [
    '$in as one JSON parameter',
    { c_str: { $in: ['a', 'b'] } },
    `${X('c_str')} IN (SELECT value FROM json_each(?))`,
    ['["a","b"]'],
  ],
  [
    '$in with null',
    { c_str: { $in: [null, 'a'] } },
    `(${X('c_str')} IS NULL OR ${X('c_str')} IN (SELECT value FROM json_each(?)))`,
    ['["a"]'],
  ],
  ['$in []', { c_str: { $in: [] } }, '0', []],
  [
    '$nin',
    { c_str: { $nin: ['a'] } },
    `(${X('c_str')} IS NULL OR ${X('c_str')} NOT IN (SELECT value FROM json_each(?)))`,
    ['["a"]'],
  ],
  [
    '$nin with null',
    { c_str: { $nin: [null, 'a'] } },
    `(${X('c_str')} IS NOT NULL AND ${X('c_str')} NOT IN (SELECT value FROM json_each(?)))`,
    ['["a"]'],
  ],
  ['$nin []', { c_str: { $nin: [] } }, '1', []],
  ['$exists true', { c_str: { $exists: true } }, `${X('c_str')} IS NOT NULL`, []],
  ['$exists false', { c_str: { $exists: false } }, `NOT ${X('c_str')} IS NOT NULL`, []],
  ['$regex without literal prefix', { c_str: { $regex: '/mi/i' } }, `re_match(?, ?, ${X('c_str')})`, ['mi', 'i']],
  [
    '$regex anchored prefix',
    { c_str: { $regex: '/^Sm.th/' } },
    `((${X('c_str')} >= ? AND ${X('c_str')} < ?) AND re_match(?, ?, ${X('c_str')}))`,
    ['Sm', 'Sn', '^Sm.th', ''],
  ],
  ['$regex with m flag has no range', { c_str: { $regex: '/^a/m' } }, `re_match(?, ?, ${X('c_str')})`, ['^a', 'm']],
  // Letters or digits after `^`, at most the i flag: the ranges are the matches, re_match is left out.
  [
    '$regex letters-only prefix: the range decides',
    { c_str: { $regex: '/^Sm/' } },
    `(${X('c_str')} >= ? AND ${X('c_str')} < ?)`,
    ['Sm', 'Sn'],
  ],
  ['array $eq: any element', { c_tags: 'x' }, `EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE j1.value = ?)`, ['x']],
  [
    'array $ne: no element',
    { c_tags: { $ne: 'x' } },
    `NOT EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE j1.value = ?)`,
    ['x'],
  ],
  ['array $eq null: array missing', { c_tags: null }, `NOT ${X('c_tags')} IS NOT NULL`, []],
  ['array $gt', { c_tags: { $gt: 'm' } }, `EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE j1.value > ?)`, ['m']],
  [
    'array $nin',
    { c_tags: { $nin: ['a'] } },
    `NOT EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE j1.value IN (SELECT value FROM json_each(?)))`,
    ['["a"]'],
  ],
  [
    'array $regex (no index range)',
    { c_tags: { $regex: '/^a/' } },
    `EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE re_match(?, ?, j1.value))`,
    ['^a', ''],
  ],
  ['$size', { c_tags: { $size: 2 } }, `json_array_length(doc, '$.c_tags') = ?`, [2]],
  [
    '$all',
    { c_tags: { $all: ['a', 'b'] } },
    `NOT EXISTS (SELECT 1 FROM json_each(?) AS j2 WHERE NOT EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE j1.value = j2.value))`,
    ['["a","b"]'],
  ],
  ['$all []', { c_tags: { $all: [] } }, '0', []],
  [
    '$elemMatch on scalars',
    { c_tags: { $elemMatch: { $gte: 'b', $lt: 'c' } } },
    `EXISTS (SELECT 1 FROM ${EACH('c_tags')} WHERE (j1.value >= ? AND j1.value < ?))`,
    ['b', 'c'],
  ],
  [
    'property inside array of documents',
    { 'c_enrollments.c_score': { $gt: 3 } },
    `EXISTS (SELECT 1 FROM ${EACH('c_enrollments')} WHERE j1.type = 'object' AND json_extract(j1.value, '$.c_score') > ?)`,
    [3],
  ],
  [
    '$exists inside array of documents',
    { 'c_enrollments.c_course': { $exists: true } },
    `EXISTS (SELECT 1 FROM ${EACH('c_enrollments')} WHERE j1.type = 'object' AND json_extract(j1.value, '$.c_course') IS NOT NULL)`,
    [],
  ],
  [
    '$elemMatch on documents',
    { c_enrollments: { $elemMatch: { c_course: 'm', c_score: { $ne: 1 } } } },
    `EXISTS (SELECT 1 FROM ${EACH('c_enrollments')} WHERE j1.type = 'object' AND (json_extract(j1.value, '$.c_course') = ? AND json_extract(j1.value, '$.c_score') IS NOT ?))`,
    ['m', 1],
  ],
  [
    '$size of array of documents',
    { c_enrollments: { $size: 0 } },
    `json_array_length(doc, '$.c_enrollments') = ?`,
    [0],
  ],
  [
    '$and / $or nesting keeps parameter order',
    { $or: [{ c_str: 'a' }, { $and: [{ c_int: 1 }, { c_num: { $lt: 2 } }] }] },
    `(${X('c_str')} = ? OR (${X('c_int')} = ? AND ${X('c_num')} < ?))`,
    ['a', 1, 2],
  ],
];

describe('compileListQuery: where, operator by operator', () => {
  it.each(cases)('%s', (_name, where, sql, params) => {
    expect(compileWhereOf(where)).toEqual({ where: sql, params });
  });

  it('leaves re_match out of every branch of a case-insensitive letters-only prefix', () => {
    const { sql, params } = compileListQuery(
      parseListQuery({ where: JSON.stringify({ c_str: { $regex: '/^k2/i' } }) }, THING_DEF),
      { table: 'things' },
    );
    expect(sql.split(' UNION ALL ')).toHaveLength(3);
    expect(sql).not.toContain('re_match');
    expect(params).toEqual(['k2', 'k3', 'K2', 'K3', '\u212a2', '\u212a3', 0]);
  });

  it.each([
    ['a prefix longer than the case variants expanded', '/^abcd/i'],
    ['a dot after the letters', '/^ab./'],
    ['an escaped character', '/^a\\.b/'],
    ['the s flag', '/^ab/s'],
    ['the x flag', '/^ab/x'],
  ])('keeps re_match for %s (%s): the ranges only narrow there', (_name, regex) => {
    expect(compileWhereOf({ c_str: { $regex: regex } }).where).toContain('re_match(?, ?, ');
  });
});

describe('hostile values are bound, never inlined', () => {
  const hostile = ["'); DROP TABLE things; --", 'a"b', "O'Brien", 'nul\u0000byte', '\\', '?', '$.c_str'];
  const shapes = (v: string) => [
    { c_str: v },
    { c_tags: { $in: [v, 'z'] } },
    { 'name.last': { $gte: v } },
    { c_str: { $regex: `/^${RE2JS.quote(v)}/` } },
  ];
  it.each(hostile)('%j', (value) => {
    const benign = shapes('x').map((w) =>
      compileListQuery(parseListQuery({ where: JSON.stringify(w) }, THING_DEF), { table: 'things' }),
    );
    shapes(value).forEach((where, i) => {
      const { sql, params } = compileListQuery(parseListQuery({ where: JSON.stringify(where) }, THING_DEF), {
        table: 'things',
      });
      // The SQL text does not depend on the value at all; the value only travels as a parameter.
      if (i < 3) expect(sql).toBe(benign[i]?.sql);
      expect(sql).not.toContain('DROP');
      const carried = params.some(
        (p) =>
          p === value ||
          p === `^${RE2JS.quote(value)}` ||
          (typeof p === 'string' && p.startsWith('[') && (JSON.parse(p) as unknown[]).includes(value)),
      );
      expect(carried).toBe(true);
    });
  });

  it('round-trip through SQLite: the hostile value is found as data and the table survives', () => {
    const db = new Database(':memory:');
    registerQueryFunctions(db);
    db.exec('CREATE TABLE things (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO things VALUES (?, ?)');
    hostile.forEach((v, i) => insert.run(String(i).padStart(24, '0'), JSON.stringify({ c_str: v })));
    for (const [i, v] of hostile.entries()) {
      const q = compileListQuery(parseListQuery({ where: JSON.stringify({ c_str: v }) }, THING_DEF), {
        table: 'things',
      });
      const rows = db.prepare(q.sql).all(...q.params) as { _id: string }[];
      expect(rows.map((r) => r._id)).toEqual([String(i).padStart(24, '0')]);
    }
    expect((db.prepare('SELECT COUNT(*) AS n FROM things').get() as { n: number }).n).toBe(hostile.length);
    db.close();
  });
});
