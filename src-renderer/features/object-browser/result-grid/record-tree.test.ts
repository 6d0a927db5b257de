import { describe, expect, it } from 'vitest';
import type { PropertyDef } from '../../../../src-shared/schema/types';
import { expandedReferenceOf, recordTree, referenceOf, type TreeNode } from './record-tree';

const PROPS: PropertyDef[] = [
  { name: 'email', type: 'String' },
  { name: 'c_author', type: 'Reference', refObject: 'account' },
  { name: 'c_info', type: 'Document', properties: [{ name: 'c_x', type: 'String' }] },
  { name: 'name', type: 'Document', properties: [{ name: 'first', type: 'String' }] },
  { name: 'roles', type: 'ObjectId', array: true },
  { name: 'c_born', type: 'Date' },
  {
    name: 'c_visits',
    type: 'Document',
    array: true,
    properties: [{ name: 'c_at', type: 'Date' }],
  },
];
const ID = '0123456789abcdef01234567';

const find = (nodes: TreeNode[], path: string): TreeNode | undefined => {
  for (const node of nodes) {
    if (node.path === path) return node;
    const inner = node.children && find(node.children, path);
    if (inner) return inner;
  }
  return undefined;
};

describe('recordTree', () => {
  const tree = recordTree(
    {
      _id: ID,
      created: '2024-05-01T00:00:00.000Z',
      email: 'a@b.c',
      name: { first: 'Ann' },
      roles: [ID],
      c_born: '1990-01-01T00:00:00.000Z',
      c_visits: [{ c_at: '2024-01-01T00:00:00.000Z', c_note: 'x' }],
      owner: { _id: ID, object: 'account', path: `/accounts/${ID}` },
      c_extra: null,
      c_count: 3,
    },
    PROPS,
  );

  it('labels values with the definition type, and with the JSON type where the definition says nothing', () => {
    expect(find(tree, '_id')?.type).toBe('ObjectId');
    expect(find(tree, 'created')?.type).toBe('Date');
    expect(find(tree, 'c_born')?.type).toBe('Date');
    expect(find(tree, 'email')).toMatchObject({ type: 'String', text: 'a@b.c', copy: 'a@b.c' });
    expect(find(tree, 'name')?.type).toBe('Document');
    expect(find(tree, 'roles')).toMatchObject({ type: 'ObjectId[1]', copy: JSON.stringify([ID]) });
    expect(find(tree, 'roles.0')?.type).toBe('ObjectId');
    expect(find(tree, 'c_visits.0.c_at')?.type).toBe('Date');
    expect(find(tree, 'c_visits.0.c_note')?.type).toBe('String');
    expect(find(tree, 'c_extra')).toMatchObject({ type: 'null', text: 'null', copy: 'null' });
    expect(find(tree, 'c_count')).toMatchObject({ type: 'Number', text: '3', copy: '3' });
  });

  it('gives each value its path in dot notation, array items by index', () => {
    expect(find(tree, 'name.first')?.key).toBe('first');
    expect(find(tree, 'c_visits.0')?.key).toBe('0');
  });

  it('makes a reference a link to its record, only when its path names that record', () => {
    expect(find(tree, 'owner')).toMatchObject({ type: 'Reference', reference: { object: 'account', id: ID } });
    expect(referenceOf({ _id: ID, object: 'account', path: '/accounts/../x' })).toBeUndefined();
    expect(referenceOf({ _id: ID, object: 'account', path: `/accounts/${'f'.repeat(24)}` })).toBeUndefined();
    expect(referenceOf([ID])).toBeUndefined();
  });
});

describe('expanded references', () => {
  const expanded = { _id: ID.toUpperCase(), object: 'account', email: 'a@b.c', name: { first: 'Ann' } };
  const tree = recordTree({ _id: ID, c_author: expanded, c_info: { _id: ID, object: 'account' } }, PROPS);

  it('links an expanded reference to its record and shows its members under it', () => {
    const node = find(tree, 'c_author');
    expect(node).toMatchObject({ type: 'Reference', reference: { object: 'account', id: ID }, text: `account ${ID}` });
    expect(find(tree, 'c_author.email')).toMatchObject({ text: 'a@b.c' });
    expect(find(tree, 'c_author.name.first')).toMatchObject({ text: 'Ann' });
  });

  it("types the members by the referenced object's definition", () => {
    const typed = recordTree(
      { c_author: { ...expanded, created: '2024-05-01T00:00:00.000Z', c_born: '1990' } },
      PROPS,
      (o) => (o === 'account' ? [{ name: 'c_born', type: 'Date' }] : undefined),
    );
    expect(find(typed, 'c_author.created')?.type).toBe('Date');
    expect(find(typed, 'c_author.c_born')?.type).toBe('Date');
    expect(find(typed, 'c_author.email')?.type).toBe('String');
    expect(find(tree, 'c_author._id')?.type).toBe('ObjectId');
  });

  it('only where the definition declares a reference, and only with a real id and object name', () => {
    expect(find(tree, 'c_info')?.reference).toBeUndefined();
    expect(expandedReferenceOf({ _id: 'x', object: 'account' })).toBeUndefined();
    expect(expandedReferenceOf({ _id: ID, object: '../accounts' })).toBeUndefined();
    expect(expandedReferenceOf({ _id: ID })).toBeUndefined();
  });
});
