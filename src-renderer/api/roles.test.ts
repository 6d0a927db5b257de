import { describe, expect, it } from 'vitest';
import { resolveRoleScopes, type Role } from './roles';

const role = (id: string, scopes: string[], include: string[] = []): Role => ({
  _id: id.padStart(24, '0'),
  object: 'role',
  name: `r${id}`,
  scopes,
  include: include.map((i) => i.padStart(24, '0')),
});

describe('resolveRoleScopes', () => {
  it('follows include transitively, each role once, chains de-duplicated in first-seen order', () => {
    const roles = [role('1', ['a.x', 'b'], ['2']), role('2', ['b', 'c'], ['3']), role('3', ['d'], ['1'])];
    const resolved = resolveRoleScopes(roles, ['1'.padStart(24, '0')]);
    expect(resolved.roles.map((r) => r.name)).toEqual(['r1', 'r2', 'r3']);
    expect(resolved.scopes.map((s) => `${s.chain}@${s.role.name}`)).toEqual(['a.x@r1', 'b@r1', 'c@r2', 'd@r3']);
  });

  it('ignores unknown ids', () => {
    expect(resolveRoleScopes([role('1', ['x'])], ['f'.repeat(24)]).scopes).toEqual([]);
  });
});
