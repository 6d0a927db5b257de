import { describe, expect, it } from 'vitest';
import { checkSave, emptySaveFields, fieldsOf, routeUrl } from './save-draft';
import { parseScriptsParams, writeScriptsParams } from './scripts-route';

describe('checkSave', () => {
  it('builds a library record, label defaulting to the name', () => {
    expect(checkSave({ ...emptySaveFields, name: 'c_lib' }, 'return 1')).toEqual({
      ok: true,
      draft: { label: 'c_lib', name: 'c_lib', type: 'library', active: true, script: 'return 1' },
    });
  });

  it('builds a route record with method and a path without slashes at the ends', () => {
    const check = checkSave(
      { ...emptySaveFields, type: 'route', name: 'hello', method: 'post', path: '/hello/:who/' },
      's',
    );
    expect(check.ok && check.draft.configuration).toEqual({ method: 'post', path: 'hello/:who' });
  });

  it('refuses a bad name, and a route without a usable path', () => {
    const check = checkSave({ ...emptySaveFields, type: 'route', name: '1x', path: 'a b' }, 's');
    expect(check.ok ? null : Object.keys(check.errors).sort()).toEqual(['name', 'path']);
    expect(checkSave({ ...emptySaveFields, type: 'route', name: 'ok', path: '' }, 's').ok).toBe(false);
  });

  it('refills the form from a record', () => {
    expect(
      fieldsOf({ _id: 'x', type: 'route', name: 'n', script: '', configuration: { method: '*', path: 'p' } }),
    ).toEqual({
      type: 'route',
      name: 'n',
      label: '',
      method: '*',
      path: 'p',
    });
  });

  it('names the route URL', () => {
    expect(routeUrl('http://127.0.0.1:3000', 'demo', '/hello')).toBe('http://127.0.0.1:3000/demo/v2/routes/hello');
  });
});

describe('scripts route params', () => {
  it('keeps a well-formed id only', () => {
    expect(parseScriptsParams(new URLSearchParams('id=AAAAAAAAAAAAAAAAAAAAAAAA'))).toEqual({
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    });
    expect(parseScriptsParams(new URLSearchParams('id=nope'))).toEqual({});
    const params = new URLSearchParams();
    writeScriptsParams({ id: 'b'.repeat(24) }, params);
    expect(params.toString()).toBe(`id=${'b'.repeat(24)}`);
  });
});
