/**
 * Writes of many records at once, for every writer (the driver's insertMany, updateMany,
 * patchMany and deleteMany, and scripts through it): each record through the one-record
 * operation, so each gets its own checks and its own write transaction.
 */
import { FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { PatchOp } from '../objects/patch-ops.js';
import type { Caller } from '../access/caller.js';
import { createTriggered, deleteTriggered, patchTriggered } from './triggered-writes.js';

/** Creates each document on its own: a refused one is a write error at its index, the rest go in. */
export async function createMany(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  docs: readonly unknown[],
  opts: { dryRun?: boolean } = {},
) {
  const insertedIds: { _id: string; index: number }[] = [];
  const writeErrors: (FaultBody & { index: number })[] = [];
  for (const [index, doc] of docs.entries()) {
    try {
      const record = await createTriggered(svc, org, caller, def, doc, opts);
      insertedIds.push({ _id: record._id, index });
    } catch (e) {
      if (!(e instanceof FaultError)) throw e;
      writeErrors.push({ ...e.fault, index });
    }
  }
  return { insertedCount: insertedIds.length, insertedIds, writeErrors };
}

/** Applies the same operations to each record; the first refusal stops the rest. The ids changed. */
export async function patchMany(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  ids: readonly string[],
  ops: readonly PatchOp[],
  opts: { mergeDocuments?: boolean; dryRun?: boolean } = {},
): Promise<string[]> {
  const updated: string[] = [];
  for (const id of ids) {
    await patchTriggered(svc, org, caller, def, id, ops, opts);
    updated.push(id);
  }
  return updated;
}

/**
 * Deletes each record; the first refusal stops the rest. Never the caller's own account: deleting
 * it alone is refused, and a match should not trip over it. The number deleted.
 */
export async function deleteMany(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  ids: readonly string[],
  opts: { dryRun?: boolean } = {},
): Promise<number> {
  const targets = ids.filter((id) => !(def.name === 'account' && id === caller.accountId));
  for (const id of targets) await deleteTriggered(svc, org, caller, def, id, opts);
  return targets.length;
}
