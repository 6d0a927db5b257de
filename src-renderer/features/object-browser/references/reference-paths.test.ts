import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import type { Column } from '../../../components/result-grid/columns';
import { expandableReferences, referencePaths, withReferenceColumns } from './reference-paths';

const account: ObjectDef = {
  name: 'account',
  collection: 'accounts',
  label: 'Account',
  custom: false,
  properties: [
    { name: 'email', type: 'String' },
    { name: 'name', type: 'Document', properties: [{ name: 'first', type: 'String' }] },
    { name: 'password', type: 'String', hidden: true },
    { name: 'connections', type: 'List', refObject: 'connection' },
  ],
};
const note: ObjectDef = {
  name: 'c_note',
  collection: 'c_notes',
  label: 'Note',
  custom: true,
  properties: [
    { name: 'c_author', type: 'Reference', refObject: 'account' },
    {
      name: 'c_items',
      type: 'Document',
      array: true,
      properties: [{ name: 'c_ref', type: 'Reference', refObject: 'account' }],
    },
    { name: 'c_loose', type: 'Reference' },
  ],
};

describe('paths into references', () => {
  it('lists the references the service can expand (not inside arrays)', () => {
    expect(expandableReferences(note).map((r) => r.path)).toEqual(['updater', 'c_author', 'c_loose', 'owner']);
    // An account has no owner (the service keeps one on every other record).
    expect(expandableReferences(account).map((r) => r.path)).toEqual(['updater']);
  });

  it('offers the members of each referenced object, without hidden, list or identity members', () => {
    const paths = referencePaths(note, [account, note]);
    expect(paths).toContain('c_author.email');
    expect(paths).toContain('c_author.name.first');
    expect(paths).toContain('updater.created');
    expect(paths).toContain('owner.name.first');
    expect(paths.some((p) => p.includes('password') || p.includes('connections'))).toBe(false);
    expect(paths).not.toContain('c_author._id');
    expect(paths.some((p) => p.startsWith('c_loose.') || p.startsWith('c_items.'))).toBe(false);
  });

  it('shows paths into a reference as typed columns in place of the reference', () => {
    const columns: Column[] = [
      { path: '_id', kind: 'id', width: 220 },
      { path: 'c_author', kind: 'reference', width: 220 },
      { path: 'created', kind: 'date', width: 170 },
    ];
    const out = withReferenceColumns(columns, ['c_author.name.first', 'c_author.created'], note, [account, note]);
    expect(out.map((c) => [c.path, c.kind])).toEqual([
      ['_id', 'id'],
      ['c_author.name.first', 'text'],
      ['c_author.created', 'date'],
      ['created', 'date'],
    ]);
    const whole = withReferenceColumns(columns, ['c_author', 'c_author.email'], note, [account, note]);
    expect(whole.map((c) => c.path)).toEqual(['_id', 'c_author', 'c_author.email', 'created']);
    expect(withReferenceColumns(columns, ['created'], note, [account, note])).toEqual(columns);
    // owner has no column of its own (the schema does not declare it): its paths come last.
    const owned = withReferenceColumns(columns, ['owner.email', 'created'], note, [account, note]);
    expect(owned.map((c) => c.path)).toEqual(['_id', 'c_author', 'created', 'owner.email']);
  });
});
