import { describe, expect, it } from 'vitest';
import { FaultError, type FaultBody } from '../faults.js';
import { MAX_DEPTH, MAX_IN_ITEMS, MAX_LOGICAL_CONDITIONS } from './limits.js';
import { parseLimit, parseListQuery, parseSkip, parseSort, parseWhere } from './parse.js';
import { THING_DEF } from './testing/fixture-def.js';

function faultOf(fn: () => unknown): FaultBody {
  try {
    fn();
  } catch (e) {
    if (e instanceof FaultError) return e.fault;
    throw e;
  }
  throw new Error('expected a fault');
}
const whereFault = (where: unknown, options = {}) =>
  faultOf(() => parseWhere(typeof where === 'string' ? where : JSON.stringify(where), THING_DEF, options));

describe('parseWhere: accepted shapes', () => {
  it('treats absent, blank and {} as no condition', () => {
    expect(parseWhere(undefined, THING_DEF)).toBeUndefined();
    expect(parseWhere('  ', THING_DEF)).toBeUndefined();
    expect(parseWhere('{}', THING_DEF)).toBeUndefined();
  });
  it('reads an operator object on a dotted path (not a sub-document match)', () => {
    const c = parseWhere('{"name.last":{"$gt":"a"}}', THING_DEF);
    expect(c).toMatchObject({
      kind: 'field',
      field: { path: 'name.last', access: { kind: 'value', storagePath: 'name.last' } },
      operation: { op: '$gt', value: 'a' },
    });
  });
  it('normalises dates to stored UTC form and ObjectIds to lower case', () => {
    expect(parseWhere('{"created":{"$lt":"2024-03-01T01:30:00+01:30"}}', THING_DEF)).toMatchObject({
      operation: { value: '2024-03-01T00:00:00.000Z' },
    });
    expect(parseWhere('{"created":"2024-03-01"}', THING_DEF)).toMatchObject({
      operation: { value: '2024-03-01T00:00:00.000Z' },
    });
    expect(parseWhere('{"c_oid":"ABCDEFABCDEFABCDEFABCDEF"}', THING_DEF)).toMatchObject({
      operation: { value: 'abcdefabcdefabcdefabcdef' },
    });
  });
  it('maps references to their _id and properties in document arrays to element access', () => {
    expect(parseWhere('{"c_owner":"0123456789abcdef01234567"}', THING_DEF)).toMatchObject({
      field: { access: { kind: 'value', storagePath: 'c_owner._id' } },
    });
    expect(parseWhere('{"c_enrollments.c_course":"m"}', THING_DEF)).toMatchObject({
      field: { access: { kind: 'elements', arrayPath: 'c_enrollments', elementPath: 'c_course' } },
    });
  });
  it('AND-s several operators on one path and keeps $and/$or structure', () => {
    const c = parseWhere('{"$or":[{"c_int":{"$gte":1,"$lt":5}},{"c_str":"x"}]}', THING_DEF);
    expect(c).toMatchObject({
      kind: 'or',
      conditions: [
        { kind: 'and', conditions: [{ operation: { op: '$gte' } }, { operation: { op: '$lt' } }] },
        { kind: 'field' },
      ],
    });
  });
  it('parses $elemMatch on documents relative to the element', () => {
    const c = parseWhere('{"c_enrollments":{"$elemMatch":{"c_course":"m","c_score":{"$gt":2}}}}', THING_DEF);
    expect(c).toMatchObject({
      operation: {
        op: '$elemMatch',
        element: { kind: 'and', conditions: [{ field: { path: 'c_course' } }, { field: { path: 'c_score' } }] },
      },
    });
  });
});

describe('parseWhere: faults point at the offending spot', () => {
  it.each([
    [{ $not: { c_str: 'a' } }, 'where.$not', /\$not/],
    [{ $nor: [] }, 'where.$nor', /\$nor/],
    [{ $where: 'sleep(1)' }, 'where.$where', /\$where/],
    [{ $expr: {} }, 'where.$expr', /\$expr/],
    [{ c_str: { $x: 1 } }, 'where.c_str.$x', /\$x/],
    [{ c_str: { $regex: '/a/', $options: 'i' } }, 'where.c_str.$options', /\$options/],
  ])('unsupported operator %j', (where, path, reason) => {
    const f = whereFault(where);
    expect(f).toMatchObject({ errCode: 'service.invalidArgument.query', path, status: 400 });
    expect(f.reason).toMatch(reason);
  });
  it('names the nested path of a bad regex', () => {
    const f = whereFault({ $and: [{ c_str: 'a' }, { 'name.last': { $regex: '/(a/' } }] });
    expect(f).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'where.$and[1].name.last.$regex' });
    expect(f.reason).toMatch(/missing closing \)/);
  });
  it('reports the character offset of JSON syntax errors', () => {
    const f = whereFault('{"c_str": }');
    expect(f).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'where' });
    expect(f.reason).toContain('character 10');
    expect(whereFault('{"a":1,"a":2}').reason).toMatch(/character 7.*duplicate key/);
  });
  it('refuses unknown and unindexed properties, naming them', () => {
    expect(whereFault({ c_nope: 1 })).toMatchObject({
      errCode: 'service.invalidArgument.query',
      reason: 'Unknown property "c_nope".',
    });
    expect(whereFault({ c_plain: 'a' }).reason).toMatch(/"c_plain" is not indexed/);
    expect(whereFault({ 'name.nick': 'a' }).reason).toMatch(/"name.nick" is not indexed/);
    expect(whereFault({ c_enrollments: { $elemMatch: { c_note: 'x' } } }).reason).toMatch(
      /"c_enrollments.c_note" is not indexed/,
    );
    expect(whereFault({ "c_str'); DROP": 1 }).reason).toMatch(/not a valid property path/);
  });
  it('refuses whole-array and sub-document matches as exactMatching', () => {
    for (const where of [
      { c_tags: ['a', 'b'] },
      { name: { first: 'x' } },
      { c_str: { $in: [['a']] } },
      { c_str: { $gt: { a: 1 } } },
      { name: 'x' },
      { c_enrollments: { $eq: 1 } },
    ]) {
      expect(whereFault(where).errCode).toBe('service.unsupportedOperation.exactMatching');
    }
  });
  it('refuses mixing operators and property names', () => {
    expect(whereFault({ name: { $exists: true, first: 'x' } }).reason).toMatch(/mixes operators/);
  });
  it('type-checks values against the property type', () => {
    expect(whereFault({ c_str: 1 }).reason).toMatch(/Expected a String/);
    expect(whereFault({ c_int: 1.5 }).reason).toMatch(/Integer/);
    expect(whereFault({ c_bool: 'true' }).reason).toMatch(/Boolean/);
    expect(whereFault({ c_date: '2024-02-30' }).reason).toMatch(/ISO 8601/);
    expect(whereFault({ c_date: '2024-02-01T10:00:00' }).reason).toMatch(/ISO 8601/);
    expect(whereFault({ c_oid: 'xyz' }).errCode).toBe('service.invalidArgument.invalidObjectId');
    expect(whereFault({ c_owner: { $in: ['0123456789abcdef01234567', 'nope'] } })).toMatchObject({
      errCode: 'service.invalidArgument.invalidObjectId',
      path: 'where.c_owner.$in[1]',
    });
    expect(whereFault({ c_int: { $gt: null } }).reason).toMatch(/null/);
  });
  it('checks operator applicability', () => {
    expect(whereFault({ c_int: { $regex: '/1/' } }).reason).toMatch(/String properties/);
    expect(whereFault({ c_str: { $size: 1 } }).reason).toMatch(/array properties/);
    expect(whereFault({ c_tags: { $size: -1 } }).reason).toMatch(/non-negative/);
    expect(whereFault({ c_str: { $all: ['a'] } }).reason).toMatch(/array properties/);
    expect(whereFault({ c_str: { $exists: 1 } }).reason).toMatch(/true or false/);
    expect(whereFault({ c_tags: { $elemMatch: { $exists: true } } }).reason).toMatch(
      /can't be used inside \$elemMatch/,
    );
    expect(whereFault({ 'c_enrollments.c_codes': 'x' }).errCode).toBe('service.unsupportedOperation');
    expect(whereFault({ connections: 'x' }).reason).toMatch(/list property/);
  });
  it('validates regex literals', () => {
    expect(whereFault({ c_str: { $regex: 'abc' } }).reason).toMatch(/\/pattern\/flags/);
    expect(whereFault({ c_str: { $regex: '//' } }).reason).toMatch(/1–255/);
    expect(whereFault({ c_str: { $regex: `/${'a'.repeat(256)}/` } }).reason).toMatch(/1–255/);
    expect(whereFault({ c_str: { $regex: '/a/g' } }).reason).toMatch(/flag "g"/);
    expect(whereFault({ c_str: { $regex: '/a/ii' } }).reason).toMatch(/repeated/);
    expect(whereFault({ c_str: { $regex: '/(a)\\1/' } }).reason).toMatch(/Invalid \$regex/);
    expect(parseWhere(JSON.stringify({ c_str: { $regex: `/${'a'.repeat(255)}/imsx` } }), THING_DEF)).toBeDefined();
  });
  it('enforces the limits', () => {
    expect(whereFault({ c_str: { $in: Array(MAX_IN_ITEMS + 1).fill('a') } }).reason).toMatch(/at most 10000/);
    expect(parseWhere(JSON.stringify({ c_str: { $in: Array(MAX_IN_ITEMS).fill('a') } }), THING_DEF)).toBeDefined();
    expect(whereFault({ $or: Array(MAX_LOGICAL_CONDITIONS + 1).fill({ c_str: 'a' }) }).reason).toMatch(/at most 100/);
    expect(whereFault({ $and: [] }).reason).toMatch(/non-empty/);
    let deep: unknown = { c_str: 'a' };
    for (let i = 0; i < MAX_DEPTH; i++) deep = { $and: [deep] };
    expect(parseWhere(JSON.stringify(deep), THING_DEF)).toBeDefined();
    expect(whereFault({ $or: [deep] }).reason).toMatch(/nested deeper than 20/);
  });
  it('can turn $ne and $nin off per org', () => {
    expect(whereFault({ c_str: { $ne: 'a' } }, { allowNegations: false }).reason).toMatch(
      /\$ne operator is turned off/,
    );
    expect(whereFault({ c_tags: { $elemMatch: { $nin: ['a'] } } }, { allowNegations: false }).reason).toMatch(
      /\$nin operator is turned off/,
    );
    expect(parseWhere('{"c_str":{"$ne":"a"}}', THING_DEF)).toBeDefined();
  });
});

describe('sort, skip, limit, paths', () => {
  it('accepts a bare name (ascending) or an ordered object', () => {
    expect(parseSort('name.last', THING_DEF)).toMatchObject([{ field: { path: 'name.last' }, direction: 1 }]);
    expect(parseSort('{"name.last":1,"name.first":-1}', THING_DEF).map((k) => [k.field.path, k.direction])).toEqual([
      ['name.last', 1],
      ['name.first', -1],
    ]);
  });
  it('refuses bad sorts', () => {
    expect(faultOf(() => parseSort('{"c_str":2}', THING_DEF))).toMatchObject({
      path: 'sort.c_str',
      errCode: 'service.invalidArgument.query',
    });
    expect(faultOf(() => parseSort('c_plain', THING_DEF)).reason).toMatch(/not indexed/);
    expect(faultOf(() => parseSort('c_tags', THING_DEF)).errCode).toBe('service.unsupportedOperation');
    expect(faultOf(() => parseSort('c_enrollments.c_course', THING_DEF)).errCode).toBe('service.unsupportedOperation');
    expect(
      faultOf(() =>
        parseSort(JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 1]))), THING_DEF),
      ).reason,
    ).toMatch(/at most 10/);
  });
  it('skip: 0..500000 integers only', () => {
    expect(parseSkip(undefined)).toBe(0);
    expect(parseSkip('500000')).toBe(500000);
    for (const bad of ['-1', '1.5', 'x', '', '500001', '1e3'])
      expect(faultOf(() => parseSkip(bad))).toMatchObject({ path: 'skip' });
  });
  it('limit: 1..1000, default 100, never clamped', () => {
    expect(parseLimit(undefined)).toBe(100);
    expect(parseLimit('1000')).toBe(1000);
    for (const bad of ['0', '1001', '2.5', '-3', 'ten'])
      expect(faultOf(() => parseLimit(bad))).toMatchObject({ path: 'limit', errCode: 'service.invalidArgument.query' });
  });
  it('paths[] resolve through the schema (indexed or not) and are de-duplicated', () => {
    expect(parseListQuery({ paths: ['c_plain', 'name.nick', 'c_plain'] }, THING_DEF).paths).toEqual([
      'c_plain',
      'name.nick',
    ]);
    expect(faultOf(() => parseListQuery({ paths: ['name', 'nope'] }, THING_DEF))).toMatchObject({ path: 'paths[1]' });
  });
});
