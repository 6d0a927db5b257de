import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FaultError, type FaultBody } from '../../../src-shared/faults.js';
import {
  deleteOps,
  MAX_PATCH_OPS,
  MAX_PUSHED_ARRAY_LENGTH,
  parsePatchBody,
  postOps,
  putOps,
  updateToOps,
} from './patch-ops.js';
import { applyPatch } from './patch-apply.js';
import type { Json, JsonObject } from './patch-path.js';

function faultOf(fn: () => unknown): FaultBody {
  try {
    fn();
  } catch (err) {
    if (err instanceof FaultError) return err.fault;
    throw err;
  }
  throw new Error('expected a fault');
}

const base: JsonObject = {
  c_title: 'Hello',
  c_tags: ['a', 'b', 'c'],
  name: { first: 'Ada', last: 'Lovelace' },
  c_items: [
    { _id: 'i1', c_n: 1 },
    { _id: 'i2', c_n: 2 },
  ],
};

function patch(body: unknown, subPath?: string, doc: JsonObject = base) {
  return applyPatch(doc, parsePatchBody(body, subPath));
}

describe('PATCH operation arrays (§F)', () => {
  it.each<[string, unknown, string | undefined, Partial<Record<string, Json>>, string[]]>([
    [
      'set at a dotted path',
      [{ op: 'set', path: 'name.first', value: 'Grace' }],
      undefined,
      { name: { first: 'Grace', last: 'Lovelace' } },
      ['name.first'],
    ],
    [
      'set at a slash path',
      [{ op: 'set', path: '/name/last', value: 'Hopper' }],
      undefined,
      { name: { first: 'Ada', last: 'Hopper' } },
      ['name.last'],
    ],
    [
      'set without path merges an object',
      [{ op: 'set', value: { c_title: 'Hi', c_n: 3 } }],
      undefined,
      { c_title: 'Hi', c_n: 3 },
      ['c_title', 'c_n'],
    ],
    [
      'set creates missing objects',
      [{ op: 'set', path: 'c_doc.c_inner', value: 1 }],
      undefined,
      { c_doc: { c_inner: 1 } },
      ['c_doc.c_inner'],
    ],
    ['set replaces arrays', [{ op: 'set', path: 'c_tags', value: ['z'] }], undefined, { c_tags: ['z'] }, ['c_tags']],
    [
      'push one value',
      [{ op: 'push', path: 'c_tags', value: 'd' }],
      undefined,
      { c_tags: ['a', 'b', 'c', 'd'] },
      ['c_tags'],
    ],
    [
      'push an array appends each',
      [{ op: 'push', path: 'c_tags', value: ['d', 'e'] }],
      undefined,
      { c_tags: ['a', 'b', 'c', 'd', 'e'] },
      ['c_tags'],
    ],
    ['push creates the array', [{ op: 'push', path: 'c_new', value: 1 }], undefined, { c_new: [1] }, ['c_new']],
    ['remove a path', [{ op: 'remove', path: 'c_title' }], undefined, { c_title: undefined }, ['c_title']],
    [
      'remove array values',
      [{ op: 'remove', path: 'c_tags', value: 'b' }],
      undefined,
      { c_tags: ['a', 'c'] },
      ['c_tags'],
    ],
    [
      'remove an element by _id',
      [{ op: 'remove', path: 'c_items.i1' }],
      undefined,
      { c_items: [{ _id: 'i2', c_n: 2 }] },
      ['c_items.i1'],
    ],
    [
      'remove with an _id value',
      [{ op: 'remove', path: 'c_items', value: 'i2' }],
      undefined,
      { c_items: [{ _id: 'i1', c_n: 1 }] },
      ['c_items'],
    ],
    ['pull values', [{ op: 'pull', path: 'c_tags', value: ['a', 'c'] }], undefined, { c_tags: ['b'] }, ['c_tags']],
    [
      'unset keys of a value object',
      [{ op: 'unset', value: { c_title: 1, 'name.last': 1 } }],
      undefined,
      { c_title: undefined, name: { first: 'Ada' } },
      ['c_title', 'name.last'],
    ],
    ['unset a path', [{ op: 'unset', path: 'name' }], undefined, { name: undefined }, ['name']],
    [
      'set an array element by _id',
      [{ op: 'set', path: 'c_items.i2.c_n', value: 20 }],
      undefined,
      {
        c_items: [
          { _id: 'i1', c_n: 1 },
          { _id: 'i2', c_n: 20 },
        ],
      },
      ['c_items.i2.c_n'],
    ],
    [
      'a plain object body is a merge set',
      { c_title: 'Merged' },
      undefined,
      { c_title: 'Merged', c_tags: ['a', 'b', 'c'] },
      ['c_title'],
    ],
    [
      'a sub-path prefixes every op',
      [
        { op: 'set', path: 'first', value: 'G' },
        { op: 'unset', path: 'last' },
      ],
      'name',
      { name: { first: 'G' } },
      ['name.first', 'name.last'],
    ],
    [
      'a sub-path with a plain object merges under it',
      { first: 'G' },
      'name',
      { name: { first: 'G', last: 'Lovelace' } },
      ['name.first'],
    ],
    [
      'removing what is not there modifies nothing',
      [
        { op: 'unset', path: 'c_missing.c_x' },
        { op: 'pull', path: 'c_tags', value: 'q' },
      ],
      undefined,
      {},
      [],
    ],
  ])('%s', (_label, body, subPath, expected, modified) => {
    const { doc, modifiedPaths } = patch(body, subPath);
    for (const [key, value] of Object.entries(expected)) {
      if (value === undefined) expect(doc).not.toHaveProperty(key);
      else expect(doc[key]).toEqual(value);
    }
    expect(modifiedPaths).toEqual(modified);
  });

  it.each<[string, unknown, string | undefined, Partial<FaultBody>]>([
    [
      'an unknown op',
      [{ op: 'inc', path: 'c_n', value: 1 }],
      undefined,
      { errCode: 'service.unsupportedOperation.patchOp', code: 'kUnsupportedOperation', path: 'c_n' },
    ],
    [
      'an unknown op under a sub-path',
      [{ op: 'rename', path: 'first' }],
      'name',
      { errCode: 'service.unsupportedOperation.patchOp', path: 'name.first' },
    ],
    [
      'set without a value',
      [{ op: 'set', path: 'c_title' }],
      undefined,
      { errCode: 'service.invalidArgument.patchOp', path: 'c_title' },
    ],
    [
      'set without path of a primitive',
      [{ op: 'set', value: 3 }],
      undefined,
      { errCode: 'service.invalidArgument.patchOp', path: '' },
    ],
    [
      'push onto a non-array',
      [{ op: 'push', path: 'c_title', value: 'x' }],
      undefined,
      { errCode: 'service.invalidArgument.patchOp', path: 'c_title' },
    ],
    ['push without a path', [{ op: 'push', value: 'x' }], undefined, { errCode: 'service.invalidArgument.patchOp' }],
    ['remove without a path', [{ op: 'remove' }], undefined, { errCode: 'service.invalidArgument.patchOp' }],
    ['remove with an object value', [{ op: 'remove', path: 'c_tags', value: { a: 1 } }], undefined, { path: 'c_tags' }],
    [
      'set under a primitive',
      [{ op: 'set', path: 'c_title.c_x', value: 1 }],
      undefined,
      { errCode: 'service.invalidArgument.patchOp', path: 'c_title.c_x' },
    ],
    [
      '__proto__ in a path',
      [{ op: 'set', path: 'name.__proto__.polluted', value: 1 }],
      undefined,
      { path: 'name.__proto__.polluted' },
    ],
    [
      'constructor in a path',
      [{ op: 'set', path: 'constructor/prototype', value: 1 }],
      undefined,
      { path: 'constructor/prototype' },
    ],
    ['prototype in a merge key', [{ op: 'unset', value: { prototype: 1 } }], undefined, { path: 'prototype' }],
    ['an empty segment', [{ op: 'set', path: 'name..first', value: 1 }], undefined, { path: 'name..first' }],
    ['a non-object op', ['set'], undefined, { errCode: 'service.invalidArgument.patchOp' }],
    [
      'a non-string path',
      [{ op: 'set', path: 3, value: 1 }],
      undefined,
      { errCode: 'service.invalidArgument.patchOp' },
    ],
    ['a primitive body', 'x', undefined, { errCode: 'service.invalidArgument.patchOp' }],
  ])('refuses %s', (_label, body, subPath, expected) => {
    expect(faultOf(() => patch(body, subPath))).toMatchObject(expected);
  });

  it('never mutates its input, and shares no objects with it', () => {
    const before = structuredClone(base);
    const value = { c_deep: [1] };
    const { doc } = patch([
      { op: 'set', path: 'name.first', value: 'X' },
      { op: 'push', path: 'c_tags', value: 'd' },
      { op: 'remove', path: 'c_items.i1' },
      { op: 'set', path: 'c_obj', value },
    ]);
    expect(base).toEqual(before);
    value.c_deep.push(2);
    expect(doc.c_obj).toEqual({ c_deep: [1] });
  });

  it('is all or nothing: a late fault leaves no partial result', () => {
    const before = structuredClone(base);
    expect(() =>
      patch([
        { op: 'set', path: 'c_title', value: 'X' },
        { op: 'push', path: 'c_title', value: 1 },
      ]),
    ).toThrow(FaultError);
    expect(base).toEqual(before);
  });

  it('bounds the number of operations per request', () => {
    const ops = Array.from({ length: MAX_PATCH_OPS + 1 }, () => ({ op: 'set', path: 'c_n', value: 1 }));
    expect(faultOf(() => parsePatchBody(ops))).toMatchObject({ code: 'kRequestTooLarge' });
    expect(parsePatchBody(ops.slice(1))).toHaveLength(MAX_PATCH_OPS);
  });

  it('bounds the length of an array after push', () => {
    const doc = { c_tags: Array.from({ length: MAX_PUSHED_ARRAY_LENGTH - 1 }, (_, i) => i) };
    expect(patch([{ op: 'push', path: 'c_tags', value: 'last' }], undefined, doc).doc.c_tags).toHaveLength(
      MAX_PUSHED_ARRAY_LENGTH,
    );
    expect(faultOf(() => patch([{ op: 'push', path: 'c_tags', value: ['x', 'y'] }], undefined, doc))).toMatchObject({
      code: 'kRequestTooLarge',
      path: 'c_tags',
    });
  });

  it('cannot pollute Object.prototype through any wire form', () => {
    for (const attempt of [
      () => patch(JSON.parse('{"__proto__": {"polluted": 1}}')),
      () => patch([{ op: 'set', path: '__proto__.polluted', value: 1 }]),
      () => applyPatch({}, updateToOps(JSON.parse('{"$set": {"__proto__.polluted": 1}}'))),
      () => applyPatch({}, putOps({ polluted: 1 }, 'constructor.prototype')),
    ]) {
      expect(() => attempt()).toThrow(FaultError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the other wire forms', () => {
  it('PUT sets the given properties and keeps the others (arrays replaced)', () => {
    const { doc } = applyPatch(base, putOps({ c_title: 'Put', c_tags: ['x'] }));
    expect(doc).toMatchObject({ c_title: 'Put', c_tags: ['x'], name: base.name, c_items: base.c_items });
  });

  it('PUT to a path sets that path, objects included', () => {
    expect(applyPatch(base, putOps({ first: 'Only' }, 'name')).doc.name).toEqual({ first: 'Only' });
  });

  it('POST to a path pushes, DELETE of a path removes', () => {
    expect(applyPatch(base, postOps('c_tags', 'z')).doc.c_tags).toEqual(['a', 'b', 'c', 'z']);
    expect(applyPatch(base, deleteOps('c_items/i2')).doc.c_items).toEqual([{ _id: 'i1', c_n: 1 }]);
  });

  it('turns driver update documents into operations', () => {
    const ops = updateToOps({
      $set: { c_title: 'U', 'name.first': 'F' },
      $unset: { 'name.last': 1 },
      $push: { c_tags: { $each: ['d', 'e'] }, c_more: 1 },
      $pull: { c_tags: 'a' },
      $remove: { c_items: 'i1' },
    });
    const { doc, modifiedPaths } = applyPatch(base, ops);
    expect(doc).toEqual({
      c_title: 'U',
      name: { first: 'F' },
      c_tags: ['b', 'c', 'd', 'e'],
      c_more: [1],
      c_items: [{ _id: 'i2', c_n: 2 }],
    });
    expect(modifiedPaths).toEqual(['c_title', 'name.first', 'name.last', 'c_tags', 'c_more', 'c_items']);
    // Issue 40: $push with an array appends each item, as the original does (it nested the array).
    expect(applyPatch(base, updateToOps({ $push: { c_tags: ['x', 'y'] } })).doc.c_tags).toEqual([
      'a',
      'b',
      'c',
      'x',
      'y',
    ]);
    expect(faultOf(() => updateToOps({ $inc: { c_n: 1 } }))).toMatchObject({
      errCode: 'service.unsupportedOperation.patchOp',
      path: '$inc',
    });
  });

  it('merges documents on set only when asked (driver mergeDocuments)', () => {
    const ops = parsePatchBody([{ op: 'set', path: 'name', value: { first: 'M' } }]);
    expect(applyPatch(base, ops).doc.name).toEqual({ first: 'M' });
    expect(applyPatch(base, ops, { mergeDocuments: true }).doc.name).toEqual({ first: 'M', last: 'Lovelace' });
  });
});

describe('properties', () => {
  const key = fc.stringMatching(/^c_[a-z]{1,6}$/);
  const value = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  const record = fc.dictionary(key, value, { maxKeys: 5 }) as fc.Arbitrary<JsonObject>;
  const path = fc.array(key, { minLength: 1, maxLength: 3 });

  it('set then read back gives the value, and leaves the input unchanged', () => {
    fc.assert(
      fc.property(record, path, value, (doc, segments, v) => {
        const before = JSON.stringify(doc);
        let result;
        try {
          result = applyPatch(doc, parsePatchBody([{ op: 'set', path: segments.join('.'), value: v }]));
        } catch (err) {
          // Only a primitive or array on the way may refuse a set.
          expect(err).toBeInstanceOf(FaultError);
          expect(JSON.stringify(doc)).toBe(before);
          return;
        }
        let node: Json = result.doc;
        for (const s of segments) node = (node as JsonObject)[s]!;
        expect(node).toEqual(v);
        expect(result.modifiedPaths).toEqual([segments.join('.')]);
        expect(JSON.stringify(doc)).toBe(before);
      }),
    );
  });

  it('push onto an array grows it by one, at the end', () => {
    fc.assert(
      fc.property(record, key, fc.array(value, { maxLength: 5 }), value, (doc, k, array, v) => {
        const withArray = { ...doc, [k]: array };
        const pushed = applyPatch(withArray, parsePatchBody([{ op: 'push', path: k, value: [v] }])).doc[k] as Json[];
        expect(pushed).toHaveLength(array.length + 1);
        expect(pushed[array.length]).toEqual(v);
      }),
    );
  });

  it('unset removes the key and nothing else', () => {
    fc.assert(
      fc.property(record, key, (doc, k) => {
        const { doc: out } = applyPatch(doc, parsePatchBody([{ op: 'unset', path: k }]));
        expect(Object.hasOwn(out, k)).toBe(false);
        const rest = { ...doc };
        delete rest[k];
        expect(out).toEqual(rest);
      }),
    );
  });
});
