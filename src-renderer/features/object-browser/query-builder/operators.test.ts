import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { operatorsFor, queryablePaths, sortablePaths } from './operators';

const def: ObjectDef = {
  name: 'account',
  collection: 'accounts',
  label: 'Account',
  custom: false,
  properties: [
    { name: 'email', type: 'String', indexed: true, unique: true },
    { name: 'shared', type: 'Boolean' },
    {
      name: 'name',
      type: 'Document',
      properties: [
        { name: 'first', type: 'String', indexed: true },
        { name: 'last', type: 'String', indexed: true },
      ],
    },
    { name: 'roles', type: 'ObjectId', array: true, indexed: true },
    {
      name: 'c_enrollments',
      type: 'Document',
      array: true,
      properties: [
        { name: 'c_study', type: 'String', indexed: true },
        { name: 'c_enrolled', type: 'Date' },
      ],
    },
    { name: 'connections', type: 'List', refObject: 'connection' },
  ],
};

const base = { inArray: false, isArray: false, container: false, indexed: true };

describe('operatorsFor', () => {
  it('offers the operators that fit each type', () => {
    expect(operatorsFor({ ...base, type: 'String' })).toEqual([
      '$eq',
      '$ne',
      'startsWith',
      'startsWithAnyCase',
      '$in',
      '$nin',
      '$regex',
      '$exists',
    ]);
    expect(operatorsFor({ ...base, type: 'Integer' })).toEqual([
      '$eq',
      '$ne',
      '$gt',
      '$gte',
      '$lt',
      '$lte',
      '$in',
      '$nin',
      '$exists',
    ]);
    expect(operatorsFor({ ...base, type: 'Date' })).toEqual(operatorsFor({ ...base, type: 'Number' }));
    expect(operatorsFor({ ...base, type: 'Boolean' })).toEqual(['$eq', '$ne', '$exists']);
    expect(operatorsFor({ ...base, type: 'ObjectId' })).toEqual(['$eq', '$ne', '$in', '$nin', '$gt', '$lt']);
  });

  it('adds $all, $size and $elemMatch on arrays', () => {
    expect(operatorsFor({ ...base, type: 'ObjectId', inArray: true, isArray: true })).toEqual([
      '$eq',
      '$ne',
      '$in',
      '$nin',
      '$gt',
      '$lt',
      '$all',
      '$size',
      '$elemMatch',
    ]);
    // A property inside an array of documents: each element's value, but no $size of its own.
    expect(operatorsFor({ ...base, type: 'String', inArray: true })).toContain('$all');
    expect(operatorsFor({ ...base, type: 'String', inArray: true })).not.toContain('$size');
  });

  it('matches arrays of documents only as a whole', () => {
    expect(operatorsFor({ ...base, type: 'Document', container: true, indexed: false })).toEqual(['$elemMatch']);
    expect(operatorsFor({ ...base, type: 'Document', container: true })).toEqual(['$elemMatch', '$exists', '$size']);
  });
});

describe('queryablePaths', () => {
  it('lists indexed paths and arrays of documents with indexed properties, never lists or plain documents', () => {
    expect(queryablePaths(def).map((p) => p.path)).toEqual([
      '_id',
      'created',
      'updated',
      'email',
      'name.first',
      'name.last',
      'roles',
      'c_enrollments',
      'c_enrollments.c_study',
    ]);
  });

  it('sorts only by indexed single values', () => {
    expect(sortablePaths(def)).toEqual(['_id', 'created', 'updated', 'email', 'name.first', 'name.last']);
  });
});
