import { describe, expect, it } from 'vitest';
import { compileRegex, splitRegexLiteral } from '../../../../src-shared/query';
import { condition, fromWhere, group, toWhere } from './builder-state';
import { STARTS_WITH, STARTS_WITH_ANY_CASE, prefixOf, prefixRegex } from './starts-with';
import { adaptValue } from './values';

/** The pattern the service compiles for a `$regex` operand. */
function serviceRegex(operand: string): { test(text: string): boolean } {
  const literal = splitRegexLiteral(operand);
  if (typeof literal === 'string') throw new Error(literal);
  return compileRegex(literal);
}

describe('starts with', () => {
  it('compiles to an anchored regex with every special character escaped', () => {
    expect(prefixRegex('Sm', STARTS_WITH)).toBe('/^Sm/');
    expect(prefixRegex('Sm', STARTS_WITH_ANY_CASE)).toBe('/^Sm/i');
    const tricky = 'a.b*(c)[d]/e\\f|g+h?^$';
    const pattern = serviceRegex(prefixRegex(tricky, STARTS_WITH));
    expect(pattern.test(`${tricky} and more`)).toBe(true);
    expect(pattern.test(`x${tricky}`)).toBe(false);
    expect(serviceRegex(prefixRegex('a.b', STARTS_WITH)).test('axb')).toBe(false);
    expect(serviceRegex(prefixRegex('sm', STARTS_WITH_ANY_CASE)).test('Smith')).toBe(true);
  });

  it('reads back exactly the regexes it writes, and no others', () => {
    for (const text of ['', 'Sm', 'a.b', 'x/y', 'back\\slash', '(1+1)?']) {
      for (const op of [STARTS_WITH, STARTS_WITH_ANY_CASE] as const) {
        expect(prefixOf(prefixRegex(text, op))).toEqual({ op, text });
      }
    }
    for (const other of ['/Sm/', '/^Sm$/', '/^S.m/', '/^Sm/g', '/^a\\-b/', '^Sm', 5, null]) {
      expect(prefixOf(other)).toBeNull();
    }
  });

  it('shows a prefix regex from JSON as "starts with" and writes it back unchanged', () => {
    for (const doc of [{ email: { $regex: '/^ann\\./i' } }, { 'name.last': { $regex: '/^Sm/' }, locale: 'de_DE' }]) {
      const result = fromWhere(doc);
      if (!result.ok) throw new Error(result.reason);
      const first = result.root.children[0];
      expect(first?.kind === 'condition' && first.op).toMatch(/^startsWith/);
      expect(JSON.stringify(toWhere(result.root))).toBe(JSON.stringify(doc));
    }
    const built = group('$and', [condition('name.last', STARTS_WITH, 'O’Br')]);
    expect(toWhere(built)).toEqual({ 'name.last': { $regex: '/^O’Br/' } });
    // Beside another operator on the same path, it joins that path's operator object.
    const both = group('$and', [condition('email', '$ne', 'x'), condition('email', STARTS_WITH_ANY_CASE, 'a')]);
    expect(toWhere(both)).toEqual({ email: { $ne: 'x', $regex: '/^a/i' } });
  });

  it('carries the typed text between equals, starts with and regex', () => {
    const text = { type: 'String' as const, container: false };
    expect(adaptValue(text, '$eq', STARTS_WITH, 'Sm')).toBe('Sm');
    expect(adaptValue(text, STARTS_WITH, '$regex', 'a.b')).toBe('/^a\\.b/');
    expect(adaptValue(text, '$regex', STARTS_WITH, '/^a\\.b/')).toBe('a.b');
    expect(adaptValue(text, '$regex', STARTS_WITH, '/a|b/')).toBe('');
    expect(adaptValue(text, STARTS_WITH, STARTS_WITH_ANY_CASE, 'x')).toBe('x');
  });
});
