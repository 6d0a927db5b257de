/**
 * The host functions of a script run for a request through a read-only app (a GET script route;
 * every other method is refused before routing, http/app-policy.ts): the app promises no data is
 * changed, so whatever the route's code does, its writes are refused as the HTTP ones are.
 */
import { fault } from '../../../src-shared/faults.js';
import type { HostCallContext, HostFunctions } from './run-types.js';

/** Driver operations that change nothing. */
const DRIVER_READS = new Set(['cursor', 'count', 'readOne']);

/**
 * The host functions of `scriptHost` (script-host.ts) that change nothing. Any other is refused,
 * so a writer added there later is refused here until it is listed (read-only-host.test.ts).
 */
export const HOST_READS = new Set([
  'as',
  'tokens.list',
  'library.load',
  'config.get',
  'config.keys',
  'counters.get',
  'counters.list',
  'cache.get',
  'cache.has',
  'cache.list',
  'crypto.digest',
  'crypto.random',
  'crypto.uuid',
  'org.read',
  'developer.export',
  'api.activity',
  'api.principal',
]);

const refused = () =>
  fault('accessDenied', 'appReadOnly', { reason: 'The application is read-only: the script cannot write.' });

export function readOnlyHost(host: HostFunctions): HostFunctions {
  const out: HostFunctions = {};
  for (const [name, fn] of Object.entries(host)) {
    if (name === 'driver') {
      out[name] = function driver(this: HostCallContext, ...args: unknown[]) {
        if (!DRIVER_READS.has(String(args[1]))) throw refused();
        return fn.apply(this, args);
      };
    } else if (HOST_READS.has(name)) {
      out[name] = fn;
    } else {
      out[name] = () => {
        throw refused();
      };
    }
  }
  return out;
}
