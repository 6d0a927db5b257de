/**
 * Writes of records by callers — REST, the driver API, scripts' `org.objects` — with their
 * triggers (triggers/engine.ts) and audit entries (audit/record-writes.ts) around the one write
 * path (create.ts, patch.ts, delete.ts; the trigger phase of write-hooks.ts, set by triggers/install.ts):
 * - before triggers run first, outside the write's transaction; what they change is validated
 *   with the rest of the write; a refusal is the write's answer and nothing is written. A patch
 *   is then applied only over the record the triggers saw (its `updated`): a write in between
 *   makes the patch run its triggers again (at most 3 times, then `conflict.sequencing`);
 * - once the write has committed: its audit entry, then its after triggers (not awaited, unless
 *   one is `inline`), which cannot undo it.
 * A write of an object with no trigger costs two in-memory lookups.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import type { Doc } from '../objects/validate.js';
import type { PatchOp } from '../objects/patch-ops.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { newMemo, writeHooks, type BeforeCreate, type HookedWrite, type TriggerMemo } from './write-hooks.js';
import { accountDef, type PreparedAccount } from '../accounts/accounts.js';
import { storeNewAccount, type NewAccountOptions, type NewAccountOutcome } from './create-account.js';
import { auditRecordWrite } from '../audit/record-writes.js';
import { createRecord } from './create.js';
import { patchRecord, type PatchOutcome } from './patch.js';
import { deleteRecord } from './delete.js';

const MAX_TRIGGER_RETRIES = 3;

const hasTriggers = (svc: Service, write: Pick<HookedWrite, 'org' | 'def' | 'op'>, phase: 'before' | 'after') =>
  writeHooks(svc).has?.(svc, write, phase) ?? false;
const runBeforeTriggers = async (svc: Service, write: HookedWrite) => writeHooks(svc).before?.(svc, write);
const runAfterTriggers = async (svc: Service, write: HookedWrite) => writeHooks(svc).after?.(svc, write);

const labelOf = (doc: Doc | undefined) =>
  [doc?.label, doc?.name].find((v): v is string => typeof v === 'string' && v !== '');

const withoutNulls = (doc: Doc): Doc => Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== null)) as Doc;

export async function createTriggered(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  body: unknown,
  opts: { dryRun?: boolean } = {},
): Promise<StoredRecord> {
  const dryRun = opts.dryRun === true;
  const memo = newMemo(); // this write's, shared by its before and after triggers
  const before = beforeCreate(svc, org, def, caller, dryRun, memo);
  const record = await createRecord(svc, org, caller, def, body, { dryRun, ...(before ? { before } : {}) });
  if (!dryRun) await afterCreate(svc, org, def, record, caller, memo);
  return record;
}

/**
 * An account created other than by a caller's create (create.ts): self-registration (the
 * anonymous caller, with its origin) and the command line (no caller). Its triggers and audit
 * entry are a create's; create-account.ts says what the triggers see and change.
 */
export async function createAccountTriggered(
  svc: Service,
  org: Org,
  prepared: PreparedAccount,
  opts: Omit<NewAccountOptions, 'before'> = {},
): Promise<NewAccountOutcome> {
  const def = accountDef(svc, org);
  const memo = newMemo();
  const before = beforeCreate(svc, org, def, opts.caller, false, memo);
  const outcome = await storeNewAccount(svc, org, def, prepared, { ...opts, ...(before ? { before } : {}) });
  if (outcome.kind === 'created') await afterCreate(svc, org, def, outcome.record, opts.caller, memo);
  return outcome;
}

/** A create's before triggers as create.ts calls them (a create's _id is chosen first); none: undefined. */
function beforeCreate(
  svc: Service,
  org: Org,
  def: ObjectDef,
  caller: Caller | undefined,
  dryRun: boolean,
  memo: TriggerMemo,
): BeforeCreate | undefined {
  if (!hasTriggers(svc, { org, def, op: 'create' }, 'before')) return undefined;
  return (id, values) =>
    runBeforeTriggers(svc, {
      org,
      def,
      op: 'create',
      id,
      next: values,
      modified: Object.keys(values),
      caller,
      dryRun,
      memo,
    });
}

/** Once a create has committed: its audit entry, then its after triggers. */
async function afterCreate(
  svc: Service,
  org: Org,
  def: ObjectDef,
  record: StoredRecord,
  caller: Caller | undefined,
  memo: TriggerMemo,
): Promise<void> {
  const changed = Object.keys(record.doc).filter((k) => !['created', 'updated', 'updater', 'owner'].includes(k));
  auditRecordWrite(svc, { org, def, op: 'create', id: record._id, changed, label: labelOf(record.doc), caller });
  const next = record.doc;
  await runAfterTriggers(svc, {
    org,
    def,
    op: 'create',
    id: record._id,
    next,
    modified: changed,
    caller,
    dryRun: false,
    memo,
  });
}

export async function patchTriggered(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  ops: readonly PatchOp[],
  opts: { mergeDocuments?: boolean; dryRun?: boolean } = {},
): Promise<PatchOutcome> {
  const dryRun = opts.dryRun === true;
  let out: PatchOutcome | undefined;
  let memo = newMemo();
  // The record before the write, for after triggers (`script.arguments.old`); read only for them.
  let old = hasTriggers(svc, { org, def, op: 'update' }, 'after') ? svc.store.get(org.id, def, id)?.doc : undefined;
  if (!hasTriggers(svc, { org, def, op: 'update' }, 'before')) out = patchRecord(svc, org, caller, def, id, ops, opts);
  for (let attempt = 0; out === undefined; attempt++) {
    const preview = patchRecord(svc, org, caller, def, id, ops, { ...opts, dryRun: true });
    if (preview.modifiedPaths.length === 0) return preview;
    old = preview.record.doc;
    memo = newMemo(); // a retry runs the before triggers again, from an empty memo
    const values = await runBeforeTriggers(svc, {
      org,
      def,
      op: 'update',
      id,
      next: withoutNulls({ ...old, ...preview.values }),
      old,
      modified: preview.modifiedPaths,
      caller,
      dryRun,
      memo,
    });
    try {
      const triggered = { values: values ?? {}, seenUpdated: old.updated };
      out = patchRecord(svc, org, caller, def, id, ops, { ...opts, triggered });
    } catch (e) {
      const stale = e instanceof FaultError && e.fault.errCode === 'service.conflict.sequencing';
      if (!stale || attempt + 1 >= MAX_TRIGGER_RETRIES) throw e;
    }
  }
  if (dryRun || out.modifiedPaths.length === 0) return out;
  const changed = Object.keys(out.values);
  auditRecordWrite(svc, { org, def, op: 'update', id, changed, label: labelOf(out.record.doc), caller });
  const modified = out.modifiedPaths;
  const next = out.record.doc;
  await runAfterTriggers(svc, {
    org,
    def,
    op: 'update',
    id,
    next,
    ...(old ? { old } : {}),
    modified,
    caller,
    dryRun,
    memo,
  });
  return out;
}

export async function deleteTriggered(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  opts: { dryRun?: boolean } = {},
): Promise<void> {
  const dryRun = opts.dryRun === true;
  const before = hasTriggers(svc, { org, def, op: 'delete' }, 'before');
  const after = hasTriggers(svc, { org, def, op: 'delete' }, 'after');
  // The record as it was, for the triggers and the audit entry (its access is checked by the delete).
  const old = svc.store.get(org.id, def, id)?.doc;
  const memo = newMemo();
  if (before && old) {
    deleteRecord(svc, org, caller, def, id, { dryRun: true }); // refuses before any trigger runs
    await runBeforeTriggers(svc, { org, def, op: 'delete', id, old, modified: [], caller, dryRun, memo });
  }
  deleteRecord(svc, org, caller, def, id, opts);
  if (dryRun) return;
  auditRecordWrite(svc, { org, def, op: 'delete', id, changed: [], label: labelOf(old), caller });
  if (after && old)
    await runAfterTriggers(svc, { org, def, op: 'delete', id, old, modified: [], caller, dryRun, memo });
}
