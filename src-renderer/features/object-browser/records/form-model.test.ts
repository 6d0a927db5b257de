import { describe, expect, it } from 'vitest';
import { makeFault } from '../../../../src-shared/faults';
import type { PropertyDef } from '../../../../src-shared/schema/types';
import { buildBody, faultsByField, formFields, initialValues } from './form-model';

const props: PropertyDef[] = [
  { name: 'email', type: 'String', required: true },
  { name: 'name', type: 'Document', properties: [{ name: 'first', type: 'String' }] },
  { name: 'state', type: 'String', enum: ['unverified', 'verified'] },
  { name: 'favorite', type: 'Boolean' },
  { name: 'c_score', type: 'Integer' },
  { name: 'c_born', type: 'Date' },
  { name: 'c_tags', type: 'String', array: true },
  { name: 'c_owner', type: 'Reference', refObject: 'account' },
  { name: 'inherited_roles', type: 'ObjectId', array: true, readOnly: true },
  { name: 'connections', type: 'List' },
];

describe('formFields', () => {
  it('generates fields from the definition, skipping read-only and list properties', () => {
    const fields = formFields(props, 'accounts');
    expect(fields.map((f) => `${f.path}:${f.kind}`)).toEqual([
      'email:text',
      'name.first:text',
      'state:enum',
      'favorite:boolean',
      'c_score:integer',
      'c_born:date',
      'c_tags:lines',
      'c_owner:reference',
      'password:text',
    ]);
  });
});

describe('buildBody', () => {
  const fields = formFields(props, 'accounts');

  it('builds a typed body for a new record', () => {
    const values = {
      ...initialValues(fields, null),
      email: 'a@b.c',
      'name.first': 'Ann',
      favorite: true,
      c_score: '7',
      c_born: '2020-02-03T04:05:06',
      c_tags: 'x\n y \n\n',
      c_owner: '0123456789abcdef01234567',
      password: 'secret123',
    };
    expect(buildBody(fields, values, null)).toEqual({
      errors: {},
      body: {
        email: 'a@b.c',
        name: { first: 'Ann' },
        favorite: true,
        c_score: 7,
        c_born: '2020-02-03T04:05:06.000Z',
        c_tags: ['x', 'y'],
        c_owner: { _id: '0123456789abcdef01234567', object: 'account' },
        password: 'secret123',
      },
    });
  });

  it('sends only changed fields on edit, clearing with null', () => {
    const record = { _id: 'x', email: 'a@b.c', name: { first: 'Ann' }, c_score: 3 };
    const initial = initialValues(fields, record);
    const values = { ...initial, 'name.first': 'Anna', c_score: '' };
    expect(buildBody(fields, values, initial)).toEqual({
      errors: {},
      body: { name: { first: 'Anna' }, c_score: null },
    });
  });

  it('reports values it cannot convert', () => {
    const values = { ...initialValues(fields, null), c_score: '1.5', c_owner: 'nope' };
    expect(buildBody(fields, values, null).errors).toEqual({
      c_score: 'Enter a whole number.',
      c_owner: 'An id is 24 hex characters.',
    });
  });
});

describe('faultsByField', () => {
  it('puts each validation fault on the field it names', () => {
    const fields = formFields(props, 'accounts');
    const fault = makeFault('validation', undefined, {
      faults: [
        makeFault('validation', 'invalidType', { path: 'name.first', reason: 'Must be a string.' }),
        makeFault('validation', 'invalidType', { path: 'c_tags[1]', reason: 'Too long.' }),
        makeFault('validation', 'unknownProperty', { path: 'foo', reason: 'foo is not a property.' }),
      ],
    });
    const { byField, rest } = faultsByField(fault, fields);
    expect(byField).toEqual({ 'name.first': 'Must be a string.', c_tags: 'Too long.' });
    expect(rest.map((f) => f.path)).toEqual(['foo']);
    expect(
      faultsByField(makeFault('validation', 'password', { path: 'password', reason: 'Short.' }), fields).byField,
    ).toEqual({ password: 'Short.' });
  });
});
