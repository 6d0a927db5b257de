import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { lineAndColumn, locateFaultPath } from './json-locate';
import { checkSortText, checkWhereText } from './validate-text';

const def: ObjectDef = {
  name: 'account',
  collection: 'accounts',
  label: 'Account',
  custom: false,
  properties: [
    { name: 'email', type: 'String', indexed: true },
    { name: 'mobile', type: 'String' },
    {
      name: 'name',
      type: 'Document',
      properties: [
        { name: 'first', type: 'String', indexed: true },
        { name: 'last', type: 'String', indexed: true },
      ],
    },
  ],
};

describe('locateFaultPath', () => {
  it('follows keys with dots and array indexes', () => {
    const text = '{"$and":[{"email":"a"},{"name.last":{"$regex":"/^s"}}]}';
    const range = locateFaultPath(text, 'where.$and[1].name.last.$regex', 'where');
    expect(range && text.slice(range.start, range.end)).toBe('"$regex":"/^s"');
  });

  it('stops at the deepest part that exists', () => {
    const text = '{"email": {"$in": ["a", 3]}}';
    const range = locateFaultPath(text, 'where.email.$in[1]', 'where');
    expect(range && text.slice(range.start, range.end)).toBe('3');
  });

  it('gives line and column for messages', () => {
    expect(lineAndColumn('{\n  "a": x\n}', 9)).toEqual({ line: 2, column: 8 });
  });
});

describe('checkWhereText', () => {
  it('accepts blank text and valid queries', () => {
    expect(checkWhereText('  ', def)).toEqual({ ok: true, value: undefined });
    expect(checkWhereText('{"name.last": {"$regex": "/^s/i"}}', def)).toEqual({
      ok: true,
      value: { 'name.last': { $regex: '/^s/i' } },
    });
  });

  it('reports a syntax error at its character offset', () => {
    const result = checkWhereText('{"email": "a",}', def);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.offset).toBe(14);
    expect(result.problem.range).toEqual({ start: 14, end: 15 });
    expect(result.problem.message).toContain('character 14');
  });

  it('reports the shared parser fault with its path, highlighted in the text', () => {
    const text = '{"$and": [{"email": "a"}, {"mobile": "x"}]}';
    const result = checkWhereText(text, def);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.path).toBe('where.$and[1].mobile');
    expect(result.problem.errCode).toBe('service.invalidArgument.query');
    expect(result.problem.message).toContain('not indexed');
    const { start, end } = result.problem.range ?? { start: 0, end: 0 };
    expect(text.slice(start, end)).toBe('"mobile": "x"');
  });
});

describe('checkSortText', () => {
  it('checks directions and sortable paths', () => {
    expect(checkSortText('{"name.last": 1, "_id": -1}', def).ok).toBe(true);
    const bad = checkSortText('{"name.last": 2}', def);
    expect(!bad.ok && bad.problem.path).toBe('sort.name.last');
  });
});
