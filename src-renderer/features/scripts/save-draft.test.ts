import { describe, expect, it } from 'vitest';
import { checkSave, emptySaveFields, fieldsOf, routeUrl, sameFields } from './save-draft';
import { parseScriptsParams, writeScriptsParams } from './scripts-route';

describe('checkSave', () => {
  it('builds a library record exported under its name, label defaulting to the name', () => {
    expect(checkSave({ ...emptySaveFields, name: 'c_lib' }, 'return 1')).toEqual({
      ok: true,
      draft: {
        label: 'c_lib',
        name: 'c_lib',
        type: 'library',
        active: true,
        script: 'return 1',
        configuration: { export: 'c_lib' },
      },
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
    ).toEqual({ ...emptySaveFields, type: 'route', name: 'n', method: '*', path: 'p' });
  });

  it('saves every route setting the service keeps, and reads them back the same', () => {
    const fields = {
      ...emptySaveFields,
      type: 'route' as const,
      name: 'c_r',
      label: 'R',
      description: 'What it does',
      active: false,
      path: 'r',
      priority: '5',
      weight: '-1.5',
      acl: ['anonymous', `role.${'a'.repeat(24)}`],
      authValidation: 'all' as const,
      apiKey: 'app-key',
      principal: 'ann@demo.test',
    };
    const check = checkSave(fields, 'return 1');
    expect(check).toEqual({
      ok: true,
      draft: {
        label: 'R',
        name: 'c_r',
        type: 'route',
        active: false,
        script: 'return 1',
        description: 'What it does',
        configuration: {
          method: 'get',
          path: 'r',
          priority: 5,
          acl: ['anonymous', `role.${'a'.repeat(24)}`],
          authValidation: 'all',
          apiKey: 'app-key',
          principal: 'ann@demo.test',
        },
        weight: -1.5,
      },
    });
    if (!check.ok) return;
    const back = fieldsOf({
      _id: 'x',
      ...check.draft,
      description: 'What it does',
      configuration: check.draft.configuration ?? undefined,
      weight: -1.5,
    });
    expect(sameFields(back, fields)).toBe(true);
  });

  it('clears settings that were saved and are now empty (PATCH replaces configuration; null clears)', () => {
    const editing = { ...emptySaveFields, type: 'route' as const, name: 'r', path: 'r', weight: '3', description: 'd' };
    const check = checkSave({ ...editing, weight: '', description: '' }, 's', editing);
    expect(check.ok && check.draft).toMatchObject({
      weight: null,
      description: null,
      configuration: { method: 'get', path: 'r' },
    });
    // A route turned library: the route settings go, the library is exported under its name.
    const library = checkSave({ ...editing, type: 'library' }, 's', editing);
    expect(library.ok && library.draft).toMatchObject({ configuration: { export: 'r' }, weight: null });
    expect(library.ok && library.draft.configuration).toEqual({ export: 'r' });
    // A new record never sends nulls.
    const fresh = checkSave({ ...editing, weight: '', description: '' }, 's');
    expect(fresh.ok && 'weight' in fresh.draft).toBe(false);
  });

  it('refuses numbers that are not numbers and acl entries the service does not read', () => {
    const base = { ...emptySaveFields, type: 'route' as const, name: 'r', path: 'r' };
    const check = checkSave({ ...base, priority: 'high', weight: '1e', acl: ['role.admin'] }, 's');
    expect(check.ok ? null : Object.keys(check.errors).sort()).toEqual(['acl', 'priority', 'weight']);
  });

  it('keeps a library export that differs from the name (one imported from the original)', () => {
    const saved = fieldsOf({
      _id: 'x',
      type: 'library',
      name: 'lib',
      script: '',
      configuration: { export: 'c_other' },
    });
    const check = checkSave(saved, 's', saved);
    expect(check.ok && check.draft.configuration).toEqual({ export: 'c_other' });
  });

  it('builds a trigger record: object, event, weight, principal, inline for after triggers only', () => {
    const fields = {
      ...emptySaveFields,
      type: 'trigger' as const,
      name: 'c_no_x',
      object: 'c_conversation',
      event: 'create.before' as const,
      weight: '10',
      principal: 'ann@demo.test',
      inline: true,
    };
    const check = checkSave(fields, 'return true');
    expect(check.ok && check.draft).toMatchObject({
      type: 'trigger',
      weight: 10,
      configuration: { object: 'c_conversation', event: 'create.before', principal: 'ann@demo.test' },
    });
    expect(check.ok && check.draft.configuration).not.toHaveProperty('inline');
    const after = checkSave({ ...fields, event: 'update.after' }, 's');
    expect(after.ok && after.draft.configuration).toMatchObject({ event: 'update.after', inline: true });
    if (!check.ok) return;
    const back = fieldsOf({
      _id: 'x',
      ...check.draft,
      description: undefined,
      configuration: check.draft.configuration ?? undefined,
      weight: 10,
    });
    expect(sameFields(back, { ...fields, label: 'c_no_x', inline: false })).toBe(true);
  });

  it('refuses a trigger without an object, and an event it does not know', () => {
    const check = checkSave(
      { ...emptySaveFields, type: 'trigger', name: 't', event: 'create.later' as 'create.before' },
      's',
    );
    expect(check.ok ? null : Object.keys(check.errors).sort()).toEqual(['event', 'object']);
  });

  it('builds a job record with its five-field schedule, and refuses another', () => {
    const check = checkSave({ ...emptySaveFields, type: 'job', name: 'c_nightly', cron: ' 0 3 * * * ' }, 's');
    expect(check.ok && check.draft.configuration).toEqual({ cron: '0 3 * * *' });
    expect(fieldsOf({ _id: 'x', type: 'job', name: 'j', script: '', configuration: { cron: '0 3 * * *' } }).cron).toBe(
      '0 3 * * *',
    );
    const bad = checkSave({ ...emptySaveFields, type: 'job', name: 'j', cron: 'every day' }, 's');
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual(['cron']);
    // A route turned job: the route's settings and weight go.
    const editing = { ...emptySaveFields, type: 'route' as const, name: 'r', path: 'r', weight: '3' };
    const job = checkSave({ ...editing, type: 'job', cron: '*/5 * * * *' }, 's', editing);
    expect(job.ok && job.draft).toMatchObject({ configuration: { cron: '*/5 * * * *' }, weight: null });
  });

  it('compares forms field by field, acl order included', () => {
    expect(sameFields(emptySaveFields, { ...emptySaveFields, acl: [] })).toBe(true);
    expect(sameFields({ ...emptySaveFields, acl: ['a', 'b'] }, { ...emptySaveFields, acl: ['b', 'a'] })).toBe(false);
    expect(sameFields(emptySaveFields, { ...emptySaveFields, active: false })).toBe(false);
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
