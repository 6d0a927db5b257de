import { describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { HOST_READS, readOnlyHost } from './read-only-host.js';
import { scriptHost } from './script-host.js';
import type { HostCallContext } from './run-types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';

const caller: Caller = { accountId: 'a', roles: new Set(), orgAdmin: false, skipAcl: false, bypassCreateAcl: false };
// Building the host touches neither: its functions use them only when called.
const host = scriptHost({} as Service, {} as Org, caller);

describe('readOnlyHost', () => {
  it('knows every host function a script has: each is a read or refused', () => {
    const writes = [
      'tokens.create',
      'tokens.revoke',
      'tokens.revokeSubject',
      'config.set',
      'counters.next',
      'counters.del',
      'counters.clear',
      'cache.set',
      'cache.del',
      'cache.clear',
      'notifications.send',
      'org.push',
      'http.request',
      'accounts.register',
      'accounts.admin',
      'developer.import',
    ];
    // A function added to scriptHost must be classified here (and in HOST_READS if it only reads).
    expect(Object.keys(host).sort()).toEqual(['driver', ...HOST_READS, ...writes].sort());
  });

  it("refuses writes with accessDenied.appReadOnly and passes reads and the driver's reads through", () => {
    const calls: unknown[][] = [];
    const wrapped = readOnlyHost({
      driver: (...args) => calls.push(args),
      'tokens.list': () => 'listed',
      'tokens.create': () => 'created',
    });
    const ctx = {} as HostCallContext;
    for (const op of ['cursor', 'count', 'readOne']) wrapped.driver!.call(ctx, 'c_x', op, {});
    expect(calls.map((c) => c[1])).toEqual(['cursor', 'count', 'readOne']);
    expect(wrapped['tokens.list']!.call(ctx)).toBe('listed');
    for (const call of [
      () => wrapped.driver!.call(ctx, 'c_x', 'insertOne', {}),
      () => wrapped.driver!.call(ctx, 'c_x', 'bulk', {}),
      () => wrapped['tokens.create']!.call(ctx),
    ]) {
      expect(call).toThrow(FaultError);
      try {
        call();
      } catch (err) {
        expect((err as FaultError).fault.errCode).toBe('service.accessDenied.appReadOnly');
      }
    }
    expect(calls).toHaveLength(3);
  });
});
