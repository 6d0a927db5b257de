/**
 * The script host's `driver(object, operation, options)`: the driver operations of §A through
 * `runDriverOperation`, acting as the run's caller (or the `script.as` principal). Options such as
 * `skipAcl` and `grant` are honoured only where that principal holds the privilege itself (not
 * `trustedOptions`): a script never reaches more than its principal could over HTTP.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { collectItems, runDriverOperation } from '../driver/driver.js';
import type { HostCallContext, HostFunctions } from './runner.js';

export function driverHost(svc: Service, org: Org, callerFor: (call: HostCallContext) => Caller): HostFunctions {
  return {
    async driver(this: HostCallContext, object: unknown, operation: unknown, options: unknown) {
      const result = await runDriverOperation(svc, org, callerFor(this), String(object), String(operation), options);
      switch (result.kind) {
        case 'value':
          return result.value ?? null;
        case 'record':
          return result.record;
        case 'list':
          // The sandbox's cursors page with skip/limit and read `{data, hasMore}`.
          return { data: result.data, hasMore: result.hasMore };
        case 'stream':
          return { data: await collectItems(result.items), hasMore: false };
      }
    },
  };
}
