/**
 * The writes the service makes on its own behalf, beside the records service: no caller, no
 * record rules, no triggers, no audit entry of a record write. Every record a caller or an operator
 * writes — REST, the driver API, scripts, import and deployments, the command line, an account's
 * creation every way — goes through records/ (write.ts) instead; a lint rule
 * (`no-restricted-syntax` in eslint.config.js) keeps store writes out of every other folder, so
 * a write that bypasses the records service says here which kind it is and why
 * (docs/ARCHITECTURE.md#system-writes).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Json } from './validate.js';
import type { StoredRecord, WriteMeta } from './stored-record.js';
import type { ObjectStore } from './store.js';

/**
 * Each kind of system write, and why it is not a record write of a caller:
 * - `bootstrap`: an org's built-in roles, made with the org, before anything could hook or audit
 *   its writes (its first administrator: accounts/accounts.ts `createAccount`);
 * - `verification`: an account's `state: verified`, the consequence of a used verification ticket
 *   or of an administrator's verify action (audited as that action); no trigger may refuse it;
 * - `lockout`: an account's `locked`, the mirror of its credentials' lock-out (security
 *   bookkeeping: no trigger may refuse or delay it, and it must happen inside the failed attempt);
 * - `derivedRoles`: `inherited_roles`, derived from the role graph in the role write's transaction;
 * - `connectionCleanup`: connections whose granter can no longer share their context, dropped as
 *   the consequence of the write that took that right away (in its transaction);
 * - `auditEntry`, `logEntry`: the records of the service-written types themselves.
 */
export type SystemWrite =
  'bootstrap' | 'verification' | 'lockout' | 'derivedRoles' | 'connectionCleanup' | 'auditEntry' | 'logEntry';

export function systemInsert(
  store: ObjectStore,
  _kind: SystemWrite,
  orgId: number,
  def: ObjectDef,
  values: Record<string, Json>,
  meta: WriteMeta = {},
): StoredRecord {
  return store.insert(orgId, def, values, meta);
}

/** Merges `values` into the record (null unsets); undefined when there is no such record. */
export function systemUpdate(
  store: ObjectStore,
  _kind: SystemWrite,
  orgId: number,
  def: ObjectDef,
  id: string,
  values: Record<string, Json>,
): StoredRecord | undefined {
  return store.update(orgId, def, id, values);
}

export function systemDelete(
  store: ObjectStore,
  _kind: SystemWrite,
  orgId: number,
  def: ObjectDef,
  id: string,
): boolean {
  return store.delete(orgId, def, id);
}
