/**
 * Updating one record with PATCH operations (original-clients.md §F): the REST routes (PATCH, PUT,
 * the sub-path routes) and the driver's `updateOne`/`patchOne` all come through `patchRecord`, so
 * access, property scopes and validation are the same for every way of changing a record.
 *
 * The read-modify-write runs in ONE immediate write transaction: the record the operations apply
 * to is the record that is stored over, so concurrent PATCHes (twenty `push`es at once) never lose
 * a write.
 */
import { fault, makeFault } from '../../../src-shared/faults.js';
import { validateScopes } from '../../../src-shared/scopes/index.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { changeLoginEmail } from '../accounts/email-change.js';
import { applyPatch, type JsonObject, type PatchOp } from '../objects/patch-ops.js';
import { validateInput, type Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/store.js';
import { REQUIRED } from './levels.js';
import { levelOf } from './acl.js';
import type { Caller } from './caller.js';
import { assertAccountPropertiesAllowed, assertConnectionAllowed } from './objects.js';
import { assertWritable, requireScope } from './scope-guard.js';
import { assertScopesExist } from './scope-schema.js';

/** Stored properties no caller writes: the record's identity and bookkeeping. */
const SYSTEM_PROPERTIES = new Set(['_id', 'created', 'updated', 'updater', 'owner', 'object']);

/**
 * Applies `ops` to record `id` of `def` for `caller` and stores the result; answers the stored
 * record. Faults: notFound (missing or unreadable), accessDenied (level, scope, account property),
 * validation (the whole changed properties against the definition), invalidArgument (an operation).
 */
export function patchRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  ops: readonly PatchOp[],
): StoredRecord {
  const allowed = requireScope(caller, 'update', def, id);
  // Scopes are checked on the top-level property of every path an operation names, before anything
  // is read: a refusal reveals nothing about what is stored.
  assertWritable(allowed, Object.fromEntries(ops.map((op) => [op.path[0] ?? '', true])));
  return svc.db
    .transaction((): StoredRecord => {
      const current = svc.store.get(org.id, def, id);
      const level = current ? levelOf(svc, org, caller, def, current) : 0;
      if (!current || level < REQUIRED.read) {
        throw fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });
      }
      if (level < REQUIRED.update) {
        throw fault('accessDenied', undefined, {
          reason: `You need update access (${REQUIRED.update}) on this ${def.name}; you have ${level}.`,
        });
      }
      const { doc: next, modifiedPaths } = applyPatch(current.doc as JsonObject, ops);
      // The changed top-level properties, whole: validation sees the complete new value of each.
      const changed: Record<string, Json> = {};
      for (const path of modifiedPaths) {
        const key = path.split('.')[0] ?? path;
        if (SYSTEM_PROPERTIES.has(key)) {
          const faults = [
            makeFault('validation', 'readOnly', {
              path: key,
              reason: `${key} is read-only.`,
              message: `${key} is read-only.`,
            }),
          ];
          throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
        }
        changed[key] = next[key] === undefined ? null : next[key];
      }
      assertWritable(allowed, changed);
      assertAccountPropertiesAllowed(caller, def, changed, 'update');
      const { values, faults } = validateInput(def, changed, 'update');
      for (const p of def.properties) {
        if (p.required && p.name in changed && (values[p.name] === undefined || values[p.name] === null)) {
          faults.push(makeFault('validation', 'required', { path: p.name, message: `${p.name} is required.` }));
        }
      }
      if (faults.length > 0) throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
      if (def.name === 'role' && Array.isArray(values.scopes)) {
        validateScopes(values.scopes as string[]);
        assertScopesExist(svc, org.id, values.scopes as string[], 'scopes');
      }
      if (def.name === 'connection') {
        assertConnectionAllowed(svc, org, caller, { ...(current.doc as Record<string, Json>), ...values });
      }
      const record = svc.store.update(org.id, def, id, values, { updaterId: caller.accountId });
      if (!record) throw fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });
      if (def.name === 'account' && typeof values.email === 'string') changeLoginEmail(svc, org.id, id, values.email);
      // An administrator unlocking an account also lifts a lock-out (even an indefinite one).
      if (def.name === 'account' && values.locked === false) svc.credentials.clearFailures(org.id, id);
      return record;
    })
    .immediate();
}
