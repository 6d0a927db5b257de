import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './compare.js';
import { runListQuery } from './evaluate.js';
import { parseListQuery, type RawListArgs } from './parse.js';
import { projectPaths } from './project.js';
import { stripExtendedSyntax } from './regex.js';
import { THING_DEF } from './testing/fixture-def.js';

const id = (n: number) => n.toString(16).padStart(24, '0');
const DOCS = [
  {
    _id: id(1),
    c_str: 'b',
    c_tags: ['x', 'y'],
    name: { first: 'Ann', last: 'smith' },
    c_enrollments: [{ c_course: 'm', c_score: 3 }],
  },
  { _id: id(2), c_str: 'a', c_tags: [], c_bool: true, name: { last: 'Smith' } },
  { _id: id(3), c_tags: ['y'], c_bool: false, c_enrollments: [{ c_score: 1 }] },
  { _id: id(4), c_str: '\u{1F600}', name: { first: 'Bo' } },
  { _id: id(5), c_str: '\uFFFF', c_enrollments: [] },
];
const ids = (args: RawListArgs) =>
  runListQuery(DOCS, parseListQuery(args, THING_DEF)).data.map((d) => Number.parseInt(d._id, 16));
const where = (w: unknown, sort = '_id') => ids({ where: JSON.stringify(w), sort });

describe('missing and null', () => {
  it('$eq null and $exists false match missing values', () => {
    expect(where({ c_str: null })).toEqual([3]);
    expect(where({ c_str: { $exists: false } })).toEqual([3]);
  });
  it('$ne matches missing values too; $ne null means present', () => {
    expect(where({ c_str: { $ne: 'a' } })).toEqual([1, 3, 4, 5]);
    expect(where({ c_str: { $ne: null } })).toEqual([1, 2, 4, 5]);
  });
  it('$in with null includes missing, $nin with null excludes it', () => {
    expect(where({ c_str: { $in: [null, 'a'] } })).toEqual([2, 3]);
    expect(where({ c_str: { $nin: [null, 'a'] } })).toEqual([1, 4, 5]);
    expect(where({ c_str: { $nin: [] } })).toEqual([1, 2, 3, 4, 5]);
  });
  it('range operators never match missing values', () => {
    expect(where({ c_str: { $lt: 'z' } })).toEqual([1, 2]);
  });
});

describe('arrays', () => {
  it('comparisons match when any element matches; $ne when none does', () => {
    expect(where({ c_tags: 'y' })).toEqual([1, 3]);
    expect(where({ c_tags: { $ne: 'y' } })).toEqual([2, 4, 5]);
    expect(where({ c_tags: { $nin: ['x'] } })).toEqual([2, 3, 4, 5]);
  });
  it('an empty array is present; $size counts elements', () => {
    expect(where({ c_tags: { $exists: true } })).toEqual([1, 2, 3]);
    expect(where({ c_tags: { $size: 0 } })).toEqual([2]);
    expect(where({ c_enrollments: { $size: 0 } })).toEqual([5]);
  });
  it('$all needs every value; $all [] matches nothing', () => {
    expect(where({ c_tags: { $all: ['x', 'y'] } })).toEqual([1]);
    expect(where({ c_tags: { $all: [] } })).toEqual([]);
  });
  it('properties inside document arrays: present when some element has it', () => {
    expect(where({ 'c_enrollments.c_course': { $exists: true } })).toEqual([1]);
    expect(where({ 'c_enrollments.c_course': null })).toEqual([2, 3, 4, 5]);
    expect(where({ 'c_enrollments.c_score': { $lt: 2 } })).toEqual([3]);
  });
  it('$elemMatch needs one element satisfying every condition', () => {
    expect(where({ c_enrollments: { $elemMatch: { c_course: 'm', c_score: { $gt: 2 } } } })).toEqual([1]);
    expect(where({ c_enrollments: { $elemMatch: { c_course: { $ne: 'm' } } } })).toEqual([3]);
    expect(where({ c_tags: { $elemMatch: { $gt: 'x', $lt: 'z' } } })).toEqual([1, 3]);
  });
});

describe('ordering', () => {
  it('defaults to _id descending', () => {
    expect(ids({})).toEqual([5, 4, 3, 2, 1]);
  });
  it('sorts missing first ascending, last descending, ties by _id in the last key direction', () => {
    expect(ids({ sort: 'c_bool' })).toEqual([1, 4, 5, 3, 2]);
    expect(ids({ sort: '{"c_bool":-1}' })).toEqual([2, 3, 5, 4, 1]);
  });
  it('compares strings by code point, not UTF-16 unit', () => {
    expect(ids({ sort: 'c_str', where: '{"c_str":{"$exists":true}}' })).toEqual([2, 1, 5, 4]);
    expect('\u{1F600}' < '\uFFFF').toBe(true); // what UTF-16 order would (wrongly) say
    expect(compareCodePoints('\u{1F600}', '\uFFFF')).toBeGreaterThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
  });
  it('applies skip and limit after sorting and reports hasMore', () => {
    const q = parseListQuery({ sort: '_id', skip: '1', limit: '2' }, THING_DEF);
    const page = runListQuery(DOCS, q);
    expect(page.data.map((d) => d._id)).toEqual([id(2), id(3)]);
    expect(page.hasMore).toBe(true);
    expect(runListQuery(DOCS, { ...q, skip: 3 }).hasMore).toBe(false);
  });
  it('regex is case-insensitive with i and uses Unicode folding', () => {
    expect(where({ 'name.last': { $regex: '/^s/i' } })).toEqual([1, 2]);
    expect(where({ 'name.last': { $regex: '/^S/' } })).toEqual([2]);
  });
});

describe('projectPaths', () => {
  const doc = {
    _id: id(1),
    object: 'c_thing',
    c_str: 'a',
    name: { first: 'A', last: 'B' },
    c_enrollments: [{ c_course: 'm', c_score: 1 }, { c_score: 2 }],
  };
  it('keeps _id and object plus the named paths', () => {
    expect(projectPaths(doc, ['name.last'])).toEqual({ _id: id(1), object: 'c_thing', name: { last: 'B' } });
  });
  it('a shorter path wins over a longer one in either order', () => {
    expect(projectPaths(doc, ['name.first', 'name'])).toMatchObject({ name: { first: 'A', last: 'B' } });
    expect(projectPaths(doc, ['name', 'name.first'])).toMatchObject({ name: { first: 'A', last: 'B' } });
  });
  it('projects a property of each element of a document array', () => {
    expect(projectPaths(doc, ['c_enrollments.c_course']).c_enrollments).toEqual([{ c_course: 'm' }, {}]);
  });
  it('omits missing paths', () => {
    expect(projectPaths(doc, ['c_tags'])).toEqual({ _id: id(1), object: 'c_thing' });
  });
});

describe('x flag', () => {
  it('strips whitespace and comments outside classes, keeps escapes and classes', () => {
    expect(stripExtendedSyntax(' a b # c\n d ')).toBe('abd');
    expect(stripExtendedSyntax('a\\ b[ #]c')).toBe('a\\ b[ #]c');
    expect(stripExtendedSyntax('[]# ]x')).toBe('[]# ]x');
  });
});
