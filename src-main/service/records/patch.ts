/**
 * Changing a record as a caller, for every writer (REST PATCH, PUT and the sub-path routes, the
 * driver's update and patch operations, scripts): PATCH operations (objects/patch-ops.ts,
 * patch-apply.ts) applied to the stored record and the result stored, in one immediate write
 * transaction (the record patched is the record stored over). The changed top-level properties
 * are validated whole against the definition; property scopes are checked on every path an
 * operation names; the record rules and hooks run in the one write path (write.ts).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { PatchOp } from '../objects/patch-ops.js';
import { applyPatch } from '../objects/patch-apply.js';
import type { JsonObject } from '../objects/patch-path.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import {
  REQUIRED,
  assertAccountPropertiesAllowed,
  assertConnectionAllowed,
  assertWritable,
  levelOf,
  requireScope,
  type Caller,
} from '../access/objects.js';
import { assertMayNamePrincipal } from '../access/named-principal.js';
import { denied, notFoundInstance } from './object-def.js';
import { assertNotSystemProperty, assertRequiredKept, validated } from './validate-write.js';
import { commitWrite, writeTransaction } from './write.js';
import { afterUpdate } from './consequences.js';
import { fault } from '../../../src-shared/faults.js';

export interface PatchOutcome {
  record: StoredRecord;
  /** Dotted paths the operations changed. */
  modifiedPaths: string[];
  /** The validated top-level values written (or, for a dry run, that would be). */
  values: Record<string, Json>;
}

/** What before triggers add to a patch: their values, written only over the record they saw. */
export interface TriggerChanges {
  values: Record<string, Json>;
  /** The `updated` of the record the triggers saw: another write since makes this one retry. */
  seenUpdated: unknown;
}

const staleFault = () =>
  fault('conflict', 'sequencing', { reason: 'The record changed while its triggers ran; try again.' });

export function patchRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  ops: readonly PatchOp[],
  opts: { mergeDocuments?: boolean; dryRun?: boolean; triggered?: TriggerChanges } = {},
): PatchOutcome {
  const allowed = requireScope(caller, 'update', def, id);
  assertWritable(allowed, Object.fromEntries(ops.map((op) => [op.path[0] ?? '', true])));
  return writeTransaction(svc, (): PatchOutcome => {
    const current = svc.store.get(org.id, def, id);
    const level = current ? levelOf(svc, org, caller, def, current) : 0;
    if (!current || level < REQUIRED.read) throw notFoundInstance(def, id);
    if (level < REQUIRED.update) throw denied(def, 'update', level);
    if (opts.triggered && current.doc.updated !== opts.triggered.seenUpdated) throw staleFault();
    const { doc: next, modifiedPaths } = applyPatch(current.doc as JsonObject, ops, {
      mergeDocuments: opts.mergeDocuments === true,
    });
    const changed: Record<string, Json> = {};
    for (const path of modifiedPaths) {
      const key = path.split('.')[0] ?? path;
      assertNotSystemProperty(def, key);
      changed[key] = next[key] === undefined ? null : next[key];
    }
    assertWritable(allowed, changed);
    assertAccountPropertiesAllowed(caller, def, changed, 'update');
    const values = validated(def, { ...changed, ...opts.triggered?.values }, 'update');
    assertRequiredKept(def, changed, values);
    assertMayNamePrincipal(svc, org, caller, def.name, { ...current.doc, ...values });
    if (def.name === 'connection') {
      assertConnectionAllowed(svc, org, caller, { ...(current.doc as Record<string, Json>), ...values });
    }
    const dryRun = opts.dryRun === true || modifiedPaths.length === 0;
    const event = { op: 'update', org, def, id, values, current, actorId: caller.accountId, caller, dryRun } as const;
    const record = commitWrite(svc, event, () => {
      if (dryRun) return current;
      const stored = svc.store.update(org.id, def, id, values, { updaterId: caller.accountId });
      if (!stored) throw notFoundInstance(def, id);
      afterUpdate(svc, org, def, id, values, stored);
      return stored;
    });
    return { record, modifiedPaths, values };
  });
}
