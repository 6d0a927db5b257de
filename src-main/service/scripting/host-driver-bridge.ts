import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import type { HostCallContext, HostFunctions } from './runner.js';

/** Stub until the driver module (branch `driver`, scripting/host-driver.ts) is merged. */
export function driverHost(_svc: Service, _org: Org, _callerFor: (call: HostCallContext) => Caller): HostFunctions {
  return {
    driver() {
      throw fault('notImplemented', 'script.driver', { reason: 'The driver is not available yet.' });
    },
  };
}
