import { describe, expect, it } from 'vitest';
import { draftOf, emptyForm, fieldOfFault, formOf, variableOfFault } from './view-form';

describe('view form', () => {
  it('turns the form into the record the service validates, and back', () => {
    const form = {
      ...emptyForm('c_conversation'),
      name: 'open_convs',
      where: '{"c_status": "{{status}}"}',
      sort: '',
      limit: { settable: true, defaultValue: '2', min: '1', max: '3' },
      pathsDefault: 'c_title, c_status',
      acl: 'role analyst\naccount *',
    };
    const { draft, queryFields } = draftOf(form);
    expect(draft).toMatchObject({
      name: 'open_convs',
      sourceObject: 'c_conversation',
      principal: null,
      limit: { settable: true, defaultValue: 2, min: 1, max: 3 },
      skip: { settable: true },
      paths: { settable: false, defaultValue: ['c_title', 'c_status'] },
      acl: [
        { type: 'role', target: 'analyst' },
        { type: 'account', target: '*' },
      ],
      query: [{ name: 'where', value: '{"c_status": "{{status}}"}' }],
    });
    expect(queryFields).toEqual(['where']);
    expect(formOf({ _id: 'x', ...draft })).toMatchObject({
      name: 'open_convs',
      acl: form.acl,
      pathsDefault: 'c_title, c_status',
    });
  });

  it('keeps a number it cannot read as typed, so the service names the field', () => {
    const { draft } = draftOf({
      ...emptyForm('c_x'),
      limit: { settable: true, defaultValue: 'ten', min: '', max: '' },
    });
    expect(draft.limit).toEqual({ settable: true, defaultValue: 'ten' });
  });

  it('places the service fault at the field its path names', () => {
    expect(fieldOfFault('query[0].value', ['sort'])).toBe('sort');
    expect(fieldOfFault('query[1].value', ['where', 'sort'])).toBe('sort');
    expect(fieldOfFault('acl[0].target', [])).toBe('acl');
    expect(fieldOfFault('limit', [])).toBe('limit');
    expect(fieldOfFault('paths.limitTo[0]', [])).toBe('pathsLimitTo');
    expect(fieldOfFault('sourceObject', [])).toBe('sourceObject');
    expect(fieldOfFault('somethingElse', [])).toBeUndefined();
    expect(fieldOfFault(undefined, [])).toBeUndefined();
  });

  it('saves a default and a description for each variable the components use, and reads them back', () => {
    const form = {
      ...emptyForm('account'),
      name: 'by_last',
      where: '{"name.last": {"$regex": "{{last_regex}}"}, "c_team": "{{team}}"}',
      sort: '{"name.last": {{order}}}',
      variables: {
        order: { defaultValue: '1', description: '' },
        last_regex: { defaultValue: '/^Sm/', description: '  A regex written /pattern/flags.  ' },
        team: { defaultValue: '', description: '' },
        // no longer in the components: kept in the form, not saved
        gone: { defaultValue: 'x', description: 'y' },
      },
    };
    const { draft } = draftOf(form);
    expect(draft.variables).toEqual([
      { name: 'last_regex', defaultValue: '/^Sm/', description: 'A regex written /pattern/flags.' },
      { name: 'order', defaultValue: '1' },
    ]);
    expect(formOf({ _id: 'x', ...draft }).variables).toEqual({
      last_regex: { defaultValue: '/^Sm/', description: 'A regex written /pattern/flags.' },
      order: { defaultValue: '1', description: '' },
    });
    // nothing declared is still a list, so saving an edit clears what was there
    expect(draftOf(emptyForm('account')).draft.variables).toEqual([]);
    // a fault on a declared variable is placed at that variable's field
    expect(fieldOfFault('variables[1].defaultValue', [])).toBe('variables');
    expect(variableOfFault('variables[1].defaultValue', draft.variables)).toEqual({
      name: 'order',
      field: 'defaultValue',
    });
    expect(variableOfFault('variables[0].name', draft.variables)).toEqual({ name: 'last_regex', field: 'name' });
    expect(variableOfFault('variables[5].name', draft.variables)).toBeUndefined();
    expect(variableOfFault('limit', draft.variables)).toBeUndefined();
  });
});
