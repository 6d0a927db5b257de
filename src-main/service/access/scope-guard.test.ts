import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { FaultError } from '../../../src-shared/faults.js';
import { allowedPropertyPaths, checkScope } from '../../../src-shared/scopes/index.js';
import type { ObjectOperation } from '../../../src-shared/scopes/chain.js';
import type { Caller } from './caller.js';
import { requireScope } from './scope-guard.js';

const def = (name: string) => ({ name }) as unknown as ObjectDef;
const caller = (scopes: readonly string[]) => ({ scopes }) as unknown as Caller;
const ID_A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const ID_B = 'bbbbbbbbbbbbbbbbbbbbbbbb';

/** What requireScope answered before decisions were kept: the shared matcher, asked every time. */
function unmemoised(scopes: readonly string[], op: ObjectOperation, type: string, id?: string) {
  const decision = checkScope(scopes, {
    kind: 'object',
    operation: op,
    objectType: type,
    ...(id !== undefined ? { instanceId: id } : {}),
  });
  return decision.allowed ? allowedPropertyPaths(scopes, type, op, id) : 'refused';
}

function answer(c: Caller, op: ObjectOperation, type: string, id?: string) {
  try {
    return requireScope(c, op, def(type), id);
  } catch (e) {
    if (e instanceof FaultError) return 'refused';
    throw e;
  }
}

describe('requireScope, with decisions kept per scopes array', () => {
  const scopeSets: string[][] = [
    ['*'],
    ['object.read'],
    ['object.read.account'],
    ['object.read.account.*.email', 'object.read.account.*.name.first'],
    [`object.read.account.${ID_A}`],
    [`object.update.c_thing.${ID_A}.c_name`, 'object.read.c_thing'],
    ['view.execute.x', 'not a chain!'],
  ];
  const asks: [ObjectOperation, string, string | undefined][] = [
    ['read', 'account', undefined],
    ['read', 'account', ID_A],
    ['read', 'account', ID_B],
    ['update', 'account', ID_A],
    ['read', 'c_thing', ID_A],
    ['update', 'c_thing', ID_A],
    ['update', 'c_thing', ID_B],
  ];

  it('answers every question as the matcher does, the first time and every time after', () => {
    for (const scopes of scopeSets) {
      const c = caller(scopes);
      for (let round = 0; round < 3; round++) {
        // Asked in a different order each round, so a kept decision would show up on another instance.
        const order = round === 1 ? [...asks].reverse() : asks;
        for (const [op, type, id] of order) {
          expect(answer(c, op, type, id), `${scopes.join(' ')}: ${op} ${type} ${id ?? ''}`).toEqual(
            unmemoised(scopes, op, type, id),
          );
        }
      }
    }
  });

  it('returns the kept answer for an instance-free scopes array (the same object)', () => {
    const c = caller(['object.read.account.*.email']);
    const first = requireScope(c, 'read', def('account'), ID_A);
    expect(first).toEqual(['email']);
    expect(requireScope(c, 'read', def('account'), ID_B)).toBe(first);
  });

  it('does not keep a decision when a chain names an instance', () => {
    const c = caller([`object.read.account.${ID_A}`]);
    expect(requireScope(c, 'read', def('account'), ID_A)).toBe('all');
    expect(() => requireScope(c, 'read', def('account'), ID_B)).toThrow(FaultError);
    expect(() => requireScope(c, 'read', def('account'))).toThrow(FaultError);
  });
});
