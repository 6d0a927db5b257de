/**
 * The `acl` and `modules` rules of script.as on their own (script-as-rules.ts): module names and
 * patterns, and privileged options found and dropped in bulk operations without touching documents.
 */
import { describe, expect, it } from 'vitest';
import type { FaultError } from '../../../src-shared/faults.js';
import {
  assertAclAllowed,
  assertModuleAllowed,
  driverCalls,
  dropPrivileged,
  hostModuleNames,
  parseAclRules,
  parseModuleRules,
} from './script-as-rules.js';

const refusedBy = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return (e as FaultError).fault.errCode;
  }
  return 'allowed';
};

describe('script.as module rules', () => {
  it('matches names by pattern: exact, a prefix with a dot, x.* and *', () => {
    const rules = (whitelist: string[]) => [parseModuleRules({ whitelist })!];
    expect(refusedBy(() => assertModuleAllowed(rules(['objects']), ['objects.accounts.find']))).toBe('allowed');
    expect(refusedBy(() => assertModuleAllowed(rules(['objects.*']), ['objects.accounts.find']))).toBe('allowed');
    expect(refusedBy(() => assertModuleAllowed(rules(['*']), ['script.as']))).toBe('allowed');
    expect(refusedBy(() => assertModuleAllowed(rules(['object']), ['objects.accounts.find']))).toBe(
      'service.accessDenied.script.as',
    );
    expect(refusedBy(() => assertModuleAllowed(rules(['objects.*']), hostModuleNames('as')))).toBe(
      'service.accessDenied.script.as',
    );
  });

  it('every rule set must allow a call, and any alias on a blacklist refuses it', () => {
    const outer = parseModuleRules({ whitelist: ['objects.*', 'script.as'] })!;
    const inner = parseModuleRules({ blacklist: ['objects.accounts'] })!;
    expect(
      refusedBy(() => assertModuleAllowed([outer, inner], ['objects.account.find', 'objects.accounts.find'])),
    ).toBe('service.accessDenied.script.as');
    expect(refusedBy(() => assertModuleAllowed([outer, inner], ['objects.roles.find']))).toBe('allowed');
    const safe = parseModuleRules({ safe: true })!;
    expect(refusedBy(() => assertModuleAllowed([safe], hostModuleNames('tokens.create')))).toBe(
      'service.accessDenied.script.as',
    );
    expect(refusedBy(() => assertModuleAllowed([safe], hostModuleNames('response.status')))).toBe('allowed');
  });
});

describe('script.as acl rules', () => {
  const bulk = {
    ops: [
      { operation: 'cursor', object: 'accounts', skipAcl: true },
      { operation: 'insertOne', document: { roles: ['r'], grant: 7 }, grant: 6 },
      { operation: 'bulk', ops: [{ operation: 'count', object: 'secrets', roles: ['r'] }] },
    ],
    skipAcl: true,
  };

  it('finds every operation of a bulk, nested ones included, with its object', () => {
    const calls = driverCalls('things', 'bulk', bulk);
    expect(calls.map((c) => `${c.object}.${c.operation}`)).toEqual([
      'things.bulk',
      'accounts.cursor',
      'things.insertOne',
      'things.bulk',
      'secrets.count',
    ]);
  });

  it('drops skipAcl, grant and roles at every level of a bulk, never inside a document', () => {
    expect(dropPrivileged('bulk', bulk)).toEqual({
      ops: [
        { operation: 'cursor', object: 'accounts' },
        { operation: 'insertOne', document: { roles: ['r'], grant: 7 } },
        { operation: 'bulk', ops: [{ operation: 'count', object: 'secrets' }] },
      ],
    });
    expect(dropPrivileged('cursor', { where: { grant: 1 }, grant: 6, skipAcl: true })).toEqual({ where: { grant: 1 } });
  });

  it('refuses a blacklisted option wherever it is, and cannot be made unsafe inside a safe one', () => {
    const acl = parseAclRules({ safe: false, blacklist: ['roles'] }, undefined, true);
    expect(acl.options).toBe('trusted');
    expect(refusedBy(() => assertAclAllowed(acl, driverCalls('things', 'bulk', bulk)))).toBe(
      'service.accessDenied.script.as',
    );
    const safe = parseAclRules({ safe: true }, undefined, true);
    expect(parseAclRules({ safe: false }, safe, true).options).toBe('drop');
    expect(parseAclRules({ safe: false }, undefined, false).options).toBe('caller');
    expect(parseAclRules({ safe: false }, parseAclRules(undefined, undefined, true), true).options).toBe('caller');
  });
});
