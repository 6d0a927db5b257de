/**
 * The main-side `driver(objectName, operation, options)` host function of the script sandbox:
 * `org.objects.X.find()/readOne()/insertOne()…` in a script (prelude.ts) end here and run the
 * driver API's domain operation (driver/driver.ts), so a script can do exactly what its caller can
 * do through `POST /<object>/db/<operation>`.
 *
 * Answers follow the prelude's contract: `cursor` → one page `{object:"list", data, hasMore, next}`
 * per call (the prelude asks for the next page with `next` as a fourth argument: keyset paging,
 * records/walk.ts, never a growing skip), `count` → the number, reads and writes → the record or
 * the bare value (no `{object:"result"}` wrapper), `bulk` → the array of its items.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { collectItems, runDriverOperation } from '../driver/driver.js';
import type { DriverContext } from '../driver/operation.js';
import type { HostCallContext } from './run-types.js';

export interface DriverHostOptions {
  /**
   * The caller for a call made inside `script.as(principal, …)`: given the principal the host's
   * own `as` function returned. Without it, calls inside `script.as` are refused (the script's
   * claim is never trusted).
   */
  callerFor?: (asPrincipal: unknown) => Caller;
  /** Honour `skipAcl`/`grant`/`roles` whoever the caller is (scripts written by administrators). */
  trustedOptions?: boolean;
  /** The same, for calls made inside a given `script.as` (its `acl.safe: false`, script-as.ts). */
  trustedFor?: (asPrincipal: unknown) => boolean;
  /** The caller's token carries `service/rls`. */
  tokenRoles?: boolean;
}

/** Writes answer `_id` by default in scripts, as the original's sandbox does (`lean` defaults true). */
const LEAN_BY_DEFAULT = new Set(['insertOne', 'updateOne', 'patchOne']);

export function driverHost(svc: Service, org: Org, caller: Caller, opts: DriverHostOptions = {}) {
  return async function driver(this: HostCallContext, ...args: unknown[]): Promise<unknown> {
    const [objectName, operation, options, after] = args;
    if (typeof objectName !== 'string' || typeof operation !== 'string') {
      throw fault('invalidArgument', 'script.driver', {
        reason: 'driver(object, operation, options) takes two names.',
      });
    }
    let who = caller;
    if (this?.asPrincipal !== undefined && this.asPrincipal !== null) {
      if (!opts.callerFor) {
        throw fault('accessDenied', 'script.as', { reason: 'This script cannot act as another principal.' });
      }
      who = opts.callerFor(this.asPrincipal);
    }
    const given = typeof options === 'object' && options !== null && !Array.isArray(options) ? options : undefined;
    const withDefaults =
      LEAN_BY_DEFAULT.has(operation) && given && !('lean' in given) ? { ...given, lean: true } : options;
    const trusted = opts.trustedOptions === true || opts.trustedFor?.(this?.asPrincipal) === true;
    const context: DriverContext = {
      ...(trusted ? { trustedOptions: true } : {}),
      ...(opts.tokenRoles ? { tokenRoles: true } : {}),
      ...(operation === 'cursor' && after !== undefined ? { after: continuation(after) } : {}),
    };
    const result = await runDriverOperation(svc, org, who, objectName, operation, withDefaults, context).catch(
      (e: unknown) => {
        // The original's scripts see an unknown object as an invalid argument (its errCode test).
        if (e instanceof FaultError && e.fault.errCode === 'service.notFound.object') {
          throw fault('invalidArgument', 'object', { reason: e.fault.reason ?? 'There is no such object.' });
        }
        throw e;
      },
    );
    switch (result.kind) {
      case 'value':
        return result.value ?? null;
      case 'record':
        return result.record;
      case 'list':
        return {
          object: 'list',
          data: result.data,
          hasMore: result.hasMore,
          ...(result.next ? { next: result.next } : {}),
        };
      default:
        return collectItems(result.items);
    }
  };
}

/** A cursor's continuation as the sandbox gives it back (script output; records/walk.ts checks it). */
function continuation(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw fault('invalidArgument', 'script.driver', { reason: 'A cursor continues only where a page ended.' });
}
