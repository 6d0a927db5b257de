import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { groupablePaths, groupFormValue, readGroupForm, type GroupForm } from './group-form';

describe('the $group form', () => {
  it('writes and reads back counts per value and per period', () => {
    const forms: GroupForm[] = [
      { path: 'locale', unit: 'value', countName: 'count' },
      { path: 'created', unit: 'month', countName: 'accounts' },
      { path: 'created', unit: 'year', countName: 'n' },
      { path: 'created', unit: 'day', countName: 'n' },
    ];
    for (const form of forms) expect(readGroupForm(groupFormValue(form))).toEqual(form);
    expect(groupFormValue(forms[1]!)).toEqual({
      _id: { $dateToString: { format: '%Y-%m', date: 'created' } },
      accounts: { $sum: 1 },
    });
  });

  it('leaves richer groups to the JSON', () => {
    expect(readGroupForm({ _id: 'locale', count: { $sum: 1 }, avg: { $avg: 'age' } })).toBeNull();
    expect(readGroupForm({ _id: 'locale', total: { $sum: 'age' } })).toBeNull();
    expect(readGroupForm({ _id: '$locale', count: { $sum: 1 } })).toBeNull();
    expect(readGroupForm({ _id: { $dateToString: { format: '%H', date: 'created' } }, n: { $sum: 1 } })).toBeNull();
    expect(readGroupForm({ _id: { $year: 'created' }, n: { $sum: 1 } })).toBeNull();
    expect(readGroupForm('locale')).toBeNull();
  });

  it('offers single values of the records, dates marked', () => {
    const def: ObjectDef = {
      name: 'x',
      collection: 'xs',
      label: 'X',
      custom: true,
      properties: [
        { name: 'c_tags', type: 'String', array: true },
        { name: 'c_secret', type: 'String', hidden: true },
        { name: 'c_info', type: 'Document', properties: [{ name: 'c_born', type: 'Date' }] },
        { name: 'c_items', type: 'Document', array: true, properties: [{ name: 'c_n', type: 'Number' }] },
      ],
    };
    const paths = groupablePaths(def);
    expect(paths.map((p) => p.path)).toEqual(['_id', 'created', 'updated', 'updater', 'c_info.c_born']);
    expect(paths.filter((p) => p.date).map((p) => p.path)).toEqual(['created', 'updated', 'c_info.c_born']);
  });
});
