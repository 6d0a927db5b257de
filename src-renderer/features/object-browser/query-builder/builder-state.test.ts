import { describe, expect, it } from 'vitest';
import {
  appendChild,
  condition,
  emptyGroup,
  fromWhere,
  group,
  removeNode,
  toWhere,
  updateNode,
  type BuilderNode,
  type GroupNode,
} from './builder-state';

/** The tree without its React ids, to compare shapes. */
function shape(node: BuilderNode): unknown {
  return node.kind === 'group'
    ? { logic: node.logic, children: node.children.map(shape) }
    : { path: node.path, op: node.op, value: node.value };
}

function roundTrip(root: GroupNode): GroupNode {
  const result = fromWhere(JSON.parse(JSON.stringify(toWhere(root))));
  if (!result.ok) throw new Error(result.reason);
  return result.root;
}

describe('toWhere', () => {
  it('writes an empty builder as {}', () => {
    expect(toWhere(emptyGroup())).toEqual({});
  });

  it('merges the conditions of an $and group and writes $eq as a bare value', () => {
    const root = group('$and', [
      condition('name.last', '$regex', '/^s/i'),
      condition('state', '$eq', 'verified'),
      condition('created', '$gte', '2024-01-01T00:00:00.000Z'),
      condition('created', '$lt', '2025-01-01T00:00:00.000Z'),
    ]);
    expect(toWhere(root)).toEqual({
      'name.last': { $regex: '/^s/i' },
      state: 'verified',
      created: { $gte: '2024-01-01T00:00:00.000Z', $lt: '2025-01-01T00:00:00.000Z' },
    });
  });

  it('falls back to an explicit $and when conditions would collide', () => {
    const root = group('$and', [condition('roles', '$eq', 'a'), condition('roles', '$eq', 'b')]);
    expect(toWhere(root)).toEqual({ $and: [{ roles: 'a' }, { roles: 'b' }] });
    const twoOrs = group('$and', [
      group('$or', [condition('a', '$eq', 1), condition('b', '$eq', 2)]),
      group('$or', [condition('c', '$eq', 3), condition('d', '$eq', 4)]),
    ]);
    expect(toWhere(twoOrs)).toEqual({ $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { $or: [{ c: 3 }, { d: 4 }] }] });
  });

  it('writes nested $or groups and list operands', () => {
    const root = group('$and', [
      condition('state', '$in', ['verified', 'unverified']),
      group('$or', [condition('locked', '$eq', true), condition('c_study_groups', '$size', 0)]),
    ]);
    expect(toWhere(root)).toEqual({
      state: { $in: ['verified', 'unverified'] },
      $or: [{ locked: true }, { c_study_groups: { $size: 0 } }],
    });
  });
});

describe('fromWhere', () => {
  it('round-trips builder trees through JSON', () => {
    const trees: GroupNode[] = [
      emptyGroup(),
      group('$and', [condition('email', '$eq', 'a@b.c')]),
      group('$or', [condition('a', '$gt', 1), condition('a', '$lt', -1)]),
      group('$and', [
        condition('created', '$gte', '2024-01-01T00:00:00.000Z'),
        condition('created', '$lt', '2025-01-01T00:00:00.000Z'),
        group('$or', [condition('name.last', '$regex', '/s$/i'), condition('name.first', '$exists', false)]),
        group('$or', [condition('name.last', 'startsWithAnyCase', 's'), condition('email', 'startsWith', 'a.b')]),
      ]),
      group('$and', [condition('x', '$eq', 1), condition('x', '$eq', 2)]),
      group('$and', [
        group('$or', [condition('a', '$eq', 1), condition('b', '$eq', 2)]),
        group('$or', [
          condition('c', '$eq', 3),
          group('$and', [condition('d', '$ne', null), condition('e', '$eq', 1)]),
        ]),
      ]),
      group('$and', [condition('c_enrollments', '$elemMatch', { c_study: 'x' }), condition('roles', '$all', ['a'])]),
    ];
    for (const tree of trees) expect(shape(roundTrip(tree))).toEqual(shape(tree));
  });

  it('reads hand-written documents (a plain anchored prefix as "starts with")', () => {
    const result = fromWhere({
      $and: [{ 'name.last': { $regex: '/^s/i' } }, { created: { $gt: '2024-01-01' } }, { email: { $regex: '/x$/' } }],
    });
    expect(result.ok && shape(result.root)).toEqual({
      logic: '$and',
      children: [
        { path: 'name.last', op: 'startsWithAnyCase', value: 's' },
        { path: 'created', op: '$gt', value: '2024-01-01' },
        { path: 'email', op: '$regex', value: '/x$/' },
      ],
    });
  });

  it('says what it cannot show', () => {
    expect(fromWhere([])).toEqual({ ok: false, reason: 'where must be a JSON object.' });
    expect(fromWhere({ $nor: [] })).toMatchObject({ ok: false });
    expect(fromWhere({ a: { $foo: 1 } })).toMatchObject({ ok: false, reason: expect.stringContaining('$foo') });
    expect(fromWhere({ name: { first: 'x' } })).toMatchObject({ ok: false });
    expect(fromWhere({ $or: {} })).toMatchObject({ ok: false });
  });
});

describe('edits', () => {
  it('adds, updates and removes nodes anywhere in the tree', () => {
    const inner = group('$or', []);
    let root = group('$and', [inner]);
    const added = condition('a', '$eq', 1);
    root = appendChild(root, inner.id, added);
    expect(toWhere(root)).toEqual({ $or: [{ a: 1 }] });
    root = updateNode(root, added.id, (node) => ({ ...node, value: 2 }) as BuilderNode);
    expect(toWhere(root)).toEqual({ $or: [{ a: 2 }] });
    root = removeNode(root, added.id);
    expect(root.children[0]).toMatchObject({ kind: 'group', children: [] });
  });
});
