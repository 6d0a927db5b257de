import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types';
import { allColumns, columnsForProjection, defaultColumnPaths, visibleColumns } from './columns';

const def: ObjectDef = {
  name: 'c_patientfile',
  collection: 'c_patientfiles',
  label: 'Patient file',
  custom: true,
  properties: [
    { name: 'name', type: 'Document', properties: [{ name: 'first', type: 'String' }] },
    { name: 'c_visits', type: 'Document', array: true, properties: [{ name: 'c_at', type: 'Date' }] },
    { name: 'c_tags', type: 'String', array: true },
    { name: 'secret', type: 'String', hidden: true },
    { name: 'connections', type: 'List', refObject: 'connection' },
  ],
};

describe('columns', () => {
  it('opens documents into properties, keeps arrays of documents whole, leaves lists out', () => {
    expect(allColumns(def).map((c) => `${c.path}:${c.kind}`)).toEqual([
      '_id:id',
      'object:text',
      'created:date',
      'updated:date',
      'updater:reference',
      'name.first:text',
      'c_visits:array',
      'c_tags:array',
    ]);
  });

  it('shows _id, own properties and created by default, and honours a projection', () => {
    const columns = allColumns(def);
    expect(defaultColumnPaths(columns)).toEqual(['_id', 'name.first', 'c_visits', 'c_tags', 'created']);
    expect(columnsForProjection(columns, ['name']).map((c) => c.path)).toEqual(['_id', 'name.first']);
    expect(visibleColumns(columns, ['c_tags', '_id']).map((c) => c.path)).toEqual(['_id', 'c_tags']);
    expect(visibleColumns(columns, ['gone']).map((c) => c.path)).toEqual(['_id']);
  });
});
