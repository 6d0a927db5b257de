import { describe, expect, it } from 'vitest';
import { draftOf, emptyForm, fieldOfFault, formOf } from './view-form';

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
});
