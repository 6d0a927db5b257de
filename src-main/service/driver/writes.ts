/**
 * Pieces of the driver's writes: the ops of a patch, the `lean` shapes of a write's answer, and
 * `insertMany` (each document on its own: a refused one is a write error, the rest go in).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { parsePatchBody, type PatchOp } from '../objects/patch-ops.js';
import type { Caller } from '../access/caller.js';
import { createMany } from '../records/many.js';
import type { Presented } from '../records/presentation.js';
import { MAX_INSERT_MANY, type DriverResult, type Options } from './operation.js';

export function patchOps(ops: unknown, subPath: string | undefined): PatchOp[] {
  if (ops === undefined) throw fault('invalidArgument', 'patchOp', { path: 'ops', reason: 'ops is required.' });
  return parsePatchBody(ops, subPath);
}

/**
 * `lean: true` → the `_id`; `lean: "modified"` → `_id`, `object` and the modified top-level
 * properties; anything else → the whole record as the caller sees it.
 */
export function leanAnswer(record: Presented, lean: unknown, modifiedPaths: string[]): DriverResult {
  if (lean === true) return { kind: 'value', value: record._id };
  if (lean === 'modified') {
    const out: Presented = { _id: record._id ?? null, object: record.object ?? null };
    for (const path of modifiedPaths) {
      const key = path.split('.')[0]!;
      if (record[key] !== undefined) out[key] = record[key];
    }
    return { kind: 'record', record: out };
  }
  return { kind: 'record', record };
}

export async function insertMany(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options) {
  const docs = opts.documents;
  if (!Array.isArray(docs)) {
    throw fault('invalidArgument', 'documents', { path: 'documents', reason: 'documents must be an array.' });
  }
  if (docs.length > MAX_INSERT_MANY) {
    throw fault('tooLarge', 'documents', {
      path: 'documents',
      reason: `insertMany takes at most ${MAX_INSERT_MANY} documents.`,
    });
  }
  return createMany(svc, org, caller, def, docs, { dryRun: opts.dryRun === true });
}
