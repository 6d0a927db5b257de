/**
 * One trigger's run for one write: as whom (the trigger's principal, else the account that
 * writes, else anonymous), what it sees (`script.arguments.{new, old, modified, event, dryRun, memo}`
 * and `script.context`, prelude-trigger.ts), and, for a before trigger, the host function through
 * which it changes the record (`trigger.update`, gathered in `changes`). The run goes through
 * `runScriptFor`, so it has the org's limits, waits in the org's fair queue (or runs nested in the
 * script whose write fired it) and leaves its log entry like every run.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { presentRecord } from '../objects/present.js';
import { withoutSecrets } from '../records/record-secrets.js';
import { anonymousCaller, callerOf, type Caller } from '../access/caller.js';
import { ACCESS } from '../access/levels.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { runScriptFor } from '../scripting/script-host.js';
import type { RunResult } from '../scripting/run-types.js';
import type { TriggerChanges } from './changes.js';
import type { TriggerMemo } from '../records/write-hooks.js';
import { memoValue, storeMemo } from './memo.js';
import type { TriggerDef, TriggerEvent } from './registry.js';

export type WriteOp = 'create' | 'update' | 'delete';

/** A write as its triggers see it. */
export interface TriggeredWrite {
  org: Org;
  def: ObjectDef;
  op: WriteOp;
  /** The record's `_id` (a create's is chosen before its before triggers run). */
  id: string;
  /** The record as it will be (before) or was (after) written; absent for deletes. */
  next?: Doc;
  /** The record before the write (update, delete). */
  old?: Doc;
  /** The paths the write changes. */
  modified: string[];
  /** The caller that writes (REST, driver, scripts); absent for loads. */
  caller?: Caller;
  /** The account a load writes as (an import's administrator); absent for the CLI's loads. */
  actorId?: string;
  dryRun: boolean;
  /** The memo the write's triggers share (memo.ts); the engine makes one when the writer gave none. */
  memo?: TriggerMemo;
}

/** Whom a trigger runs as; a principal that names no usable account is the trigger's fault. */
export function triggerCaller(svc: Service, trigger: TriggerDef, write: TriggeredWrite): Caller {
  const { org } = write;
  if (trigger.principal !== undefined) {
    const found = lookupAccountPrincipal(svc, org, trigger.principal);
    if (!('principal' in found)) {
      throw fault('error', 'trigger.principal', {
        reason: `Trigger ${trigger.label} runs as ${trigger.principal.slice(0, 100)}: ${found.problem}`,
      });
    }
    return callerOf(svc, { org, principal: found.principal });
  }
  if (write.caller) return write.caller;
  if (write.actorId) {
    const found = lookupAccountPrincipal(svc, org, write.actorId);
    if ('principal' in found) return callerOf(svc, { org, principal: found.principal });
  }
  return anonymousCaller();
}

/** The record as a trigger sees it: presented at the script level, without its secrets. */
const present = (write: TriggeredWrite, doc: Doc | undefined) =>
  doc === undefined
    ? undefined
    : withoutSecrets(write.def, presentRecord(write.def, { _id: write.id, doc }, ACCESS.script));

/** What `modified` holds (the original adds the bookkeeping paths a write sets). */
function modifiedPaths(write: TriggeredWrite, event: TriggerEvent): string[] {
  const extra = write.op === 'create' ? ['object', 'owner'] : event === 'update.after' ? ['updated', 'updater'] : [];
  return [...new Set([...write.modified, ...extra])].sort();
}

/**
 * Runs `trigger` for `write`; a before trigger's changes go to `changes`, and what it leaves in
 * `script.arguments.memo` to `memo` (sent when the run ends, prelude-trigger.ts).
 */
export function runTrigger(
  svc: Service,
  trigger: TriggerDef,
  write: TriggeredWrite,
  changes: TriggerChanges | undefined,
  memo: TriggerMemo,
): Promise<RunResult> {
  const caller = triggerCaller(svc, trigger, write);
  const newDoc = present(write, write.next);
  const oldDoc = present(write, write.old);
  const subject = newDoc ?? oldDoc ?? { _id: write.id, object: write.def.name };
  const inline = changes !== undefined && write.op !== 'delete';
  return runScriptFor(svc, {
    org: write.org,
    caller,
    source: trigger.source,
    arguments: {
      ...(newDoc ? { new: newDoc } : {}),
      ...(oldDoc ? { old: oldDoc } : {}),
      modified: modifiedPaths(write, trigger.event),
      event: trigger.event,
      dryRun: write.dryRun,
      memo: memoValue(memo),
    },
    trigger: { event: trigger.event, op: write.op, inline, subject: structuredClone(subject) },
    extraHost: {
      'trigger.memo': (value: unknown) => void storeMemo(memo, value),
      ...(inline ? { 'trigger.update': (path: unknown, value: unknown) => void changes.add(path, value) } : {}),
    },
    requester: write.caller?.accountId ?? write.actorId ?? caller.accountId,
    log: {
      type: 'trigger',
      scriptId: trigger.scriptId,
      label: trigger.label,
      event: trigger.event,
      object: write.def.name,
      target: write.id,
      ...(trigger.handler ? { resource: trigger.handler } : {}),
      ...(caller.accountId !== (write.caller?.accountId ?? write.actorId)
        ? { originalId: write.caller?.accountId ?? write.actorId }
        : {}),
    },
  });
}
