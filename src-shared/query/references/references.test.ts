import { describe, expect, it } from 'vitest';
import { FaultError } from '../../faults.js';
import type { ObjectDef } from '../../schema/types.js';
import { expandReferences } from './expand.js';
import { parseSelection } from './parse-selection.js';

const def = (name: string, properties: ObjectDef['properties']): ObjectDef => ({
  name,
  collection: `${name}s`,
  label: name,
  custom: true,
  properties,
});
const CHILD = def('c_child', [
  { name: 'c_string', type: 'String' },
  { name: 'c_number', type: 'Number' },
]);
const FATHER = def('c_father', [
  { name: 'c_child', type: 'Reference', refObject: 'c_child' },
  { name: 'c_name', type: 'String' },
  { name: 'c_info', type: 'Document', properties: [{ name: 'c_ref', type: 'Reference', refObject: 'c_child' }] },
]);
const GRAND = def('c_grand', [
  { name: 'c_father', type: 'Reference', refObject: 'c_father' },
  { name: 'c_loop', type: 'Reference', refObject: 'c_grand' },
  { name: 'c_any', type: 'Reference' },
  { name: 'connections', type: 'List', refObject: 'connection' },
]);
const ACCOUNT = def('account', [{ name: 'name', type: 'Document', properties: [{ name: 'first', type: 'String' }] }]);
const DEFS: Record<string, ObjectDef> = { c_child: CHILD, c_father: FATHER, c_grand: GRAND, account: ACCOUNT };
const defOf = (name: string) => DEFS[name];

function faultOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof FaultError) return e.fault;
    throw e;
  }
  throw new Error('expected a fault');
}

describe('parseSelection', () => {
  it('expands a reference whole, and references inside it (c_father.c_child)', () => {
    const s = parseSelection({ expand: ['c_father.c_child', 'owner'] }, GRAND, defOf);
    expect(s.paths).toBeUndefined();
    expect(s.expand).toEqual([
      { path: 'c_father', object: 'c_father', children: [{ path: 'c_child', object: 'c_child', children: [] }] },
      { path: 'owner', object: 'account', children: [] },
    ]);
  });

  it('expands implicitly through paths[] and keeps the reference in the record projection', () => {
    const s = parseSelection(
      { paths: ['c_name', 'c_child.c_string', 'owner.name.first', 'c_info.c_ref._id'] },
      FATHER,
      defOf,
    );
    expect(s.paths).toEqual(['c_name', 'c_child', 'owner', 'c_info.c_ref._id']);
    expect(s.expand).toEqual([
      { path: 'c_child', object: 'c_child', paths: ['c_string'], children: [] },
      { path: 'owner', object: 'account', paths: ['name.first'], children: [] },
    ]);
  });

  it('refuses non-references, paths into polymorphic references, and more than 4 levels', () => {
    expect(faultOf(() => parseSelection({ expand: ['c_name'] }, FATHER, defOf))).toMatchObject({
      errCode: 'service.invalidArgument.illegalExpansion',
      path: 'expand[0]',
    });
    expect(faultOf(() => parseSelection({ paths: ['c_any.c_x'] }, GRAND, defOf)).errCode).toBe(
      'service.invalidArgument.illegalExpansion',
    );
    parseSelection({ expand: ['c_any'] }, GRAND, defOf);
    parseSelection({ expand: ['c_loop.c_loop.c_loop.c_loop'] }, GRAND, defOf);
    expect(
      faultOf(() => parseSelection({ expand: ['c_loop.c_loop.c_loop.c_loop.c_loop'] }, GRAND, defOf)).reason,
    ).toMatch(/at most 4 deep/);
    expect(faultOf(() => parseSelection({ expand: ['c_nope'] }, GRAND, defOf)).errCode).toBe(
      'service.invalidArgument.query',
    );
  });

  it('takes include[] of list properties and of shown properties; refuses unknown ones', () => {
    expect(parseSelection({ include: ['connections', 'c_father'] }, GRAND, defOf).include).toEqual([
      'connections',
      'c_father',
    ]);
    expect(faultOf(() => parseSelection({ include: ['c_nope'] }, GRAND, defOf)).path).toBe('include[0]');
  });
});

describe('expandReferences', () => {
  const ref = (object: string, id: string) => ({ _id: id, object, path: `/${object}s/${id}` });

  it('loads each referenced object once per level, leaves unreadable ones bare, projects and nests', () => {
    const calls: [string, readonly string[]][] = [];
    const store: Record<string, Record<string, Record<string, unknown>>> = {
      c_father: {
        f1: { _id: 'f1', object: 'c_father', c_name: 'one', c_child: ref('c_child', 'k1') },
        f2: { _id: 'f2', object: 'c_father', c_name: 'two', c_child: ref('c_child', 'k2') },
      },
      c_child: { k1: { _id: 'k1', object: 'c_child', c_string: 'kid', c_number: 1 } },
    };
    const records = [
      { _id: 'g1', c_father: ref('c_father', 'f1') },
      { _id: 'g2', c_father: ref('c_father', 'f2') },
      { _id: 'g3', c_father: ref('c_father', 'f1') },
      { _id: 'g4', c_father: ref('c_father', 'fx') },
    ];
    expandReferences(
      records,
      [
        {
          path: 'c_father',
          object: 'c_father',
          children: [{ path: 'c_child', object: 'c_child', paths: ['c_string'], children: [] }],
        },
      ],
      (object, ids) => {
        calls.push([object, ids]);
        // A loader answers fresh records (LoadReferenced): the expansion places and changes them.
        return new Map(ids.flatMap((id) => (store[object]?.[id] ? [[id, structuredClone(store[object][id])]] : [])));
      },
    );
    expect(calls).toEqual([
      ['c_father', ['f1', 'f2', 'fx']],
      ['c_child', ['k1', 'k2']],
    ]);
    expect(records[0]!.c_father).toEqual({
      _id: 'f1',
      object: 'c_father',
      c_name: 'one',
      c_child: { _id: 'k1', object: 'c_child', c_string: 'kid' },
    });
    // k2 is not readable: the bare reference stays.
    expect((records[1]!.c_father as Record<string, unknown>).c_child).toEqual(ref('c_child', 'k2'));
    expect(records[3]!.c_father).toEqual(ref('c_father', 'fx'));
    // Two holders of the same record get copies: expanding one never changes the other.
    expect(records[2]!.c_father).not.toBe(records[0]!.c_father);
  });

  it('places a record referenced once as loaded, and copies one referenced twice for each place', () => {
    const loaded = new Map<string, Record<string, unknown>>();
    const records: Record<string, unknown>[] = [
      { _id: 'a', c_father: ref('c_father', 'f1') },
      { _id: 'b', c_father: ref('c_father', 'f2') },
      { _id: 'c', c_father: ref('c_father', 'f2') },
    ];
    expandReferences(records, [{ path: 'c_father', object: 'c_father', children: [] }], (object, ids) => {
      for (const id of ids) loaded.set(id, { _id: id, object, c_tags: ['x'] });
      return loaded;
    });
    expect(records[0]!.c_father).toBe(loaded.get('f1'));
    expect(records[1]!.c_father).toEqual(loaded.get('f2'));
    expect(records[1]!.c_father).not.toBe(records[2]!.c_father);
    (records[1]!.c_father as { c_tags: string[] }).c_tags.push('y');
    expect((records[2]!.c_father as { c_tags: string[] }).c_tags).toEqual(['x']);
  });
});
