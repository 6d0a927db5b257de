import { describe, expect, it } from 'vitest';
import type { FaultError } from '../faults.js';
import { routeAcl } from './acl-entry.js';

const faultOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as FaultError).fault;
  }
  throw new Error('no fault');
};

describe('route acl entries', () => {
  it("reads the original's objects, numeric types included, as this service's strings", () => {
    expect(
      routeAcl([
        'role.administrator',
        { type: 'role', target: 'c_study_participant' },
        { type: 3, target: '0123456789abcdef01234567' },
        { type: 1, target: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
        { type: 'account', target: '*' },
        { type: 1, target: '000000000000000000000001' },
        { type: 'anonymous' },
      ]),
    ).toEqual([
      'role.administrator',
      'role.c_study_participant',
      'role.0123456789abcdef01234567',
      'account.aaaaaaaaaaaaaaaaaaaaaaaa',
      'account.public',
      'anonymous',
      'anonymous',
    ]);
    expect(routeAcl('account.public')).toEqual(['account.public']);
    expect(routeAcl(undefined)).toEqual([]);
  });

  it('refuses what it cannot check rather than dropping it (a route never opens wider)', () => {
    expect(faultOf(() => routeAcl([{ type: 4 }], 'configuration.acl'))).toMatchObject({
      errCode: 'service.validation.acl',
      path: 'configuration.acl[0]',
    });
    expect(faultOf(() => routeAcl([{ type: 'role' }])).reason).toContain('names its target');
    expect(faultOf(() => routeAcl([42])).path).toBe('acl[0]');
    expect(faultOf(() => routeAcl(['x'.repeat(101)])).reason).toContain('1–100');
  });
});
