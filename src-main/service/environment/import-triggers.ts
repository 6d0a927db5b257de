/**
 * The triggers of an environment import (issue 41, docs/scripting.md#triggers), run only when the
 * import asks for them (`triggers`: mdctl's `env import --triggers` sends `?triggers=true`; the
 * original runs none otherwise). They fire for the imported records of custom object types (the
 * resources `c_thing.<_id>`), never for configuration (objects, roles, apps, settings, views,
 * scripts), as the original fires none on configuration.
 *
 * Through the trigger phase of loads (records/load-triggers.ts, shared with the CLI's NDJSON loads):
 * - `beforeImportTriggers` runs before the import's transaction (a script run is asynchronous; the
 *   transaction waits for nothing). Each record's before triggers see it as it will be written;
 *   what they change is applied with the record (environment/apply.ts, validated with the rest);
 *   a refusal throws the trigger's fault, so the import writes nothing (all or nothing).
 * - `afterImportTriggers` runs once the transaction committed: each written record's after
 *   triggers, which cannot undo it.
 * The triggers are the org's when the import starts: triggers the import itself brings, and
 * records of an object type it creates, fire none in this import.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { validateInput, type Doc, type Json } from '../objects/validate.js';
import { reference } from '../objects/stored-record.js';
import { newMemo, type HookedWrite } from '../records/write-hooks.js';
import { afterLoadTriggers, beforeLoadTriggers, loadedPaths, loadTriggerHooks } from '../records/load-triggers.js';
import { isRecordResource } from './apply.js';
import type { ResourceDoc } from './resources.js';

/** An imported record as its triggers see it. */
export interface ImportedRecord {
  resource: string;
  write: HookedWrite;
}

/** The import's records, as writes (those the apply step will refuse are left to it). */
function importedRecords(svc: Service, org: Org, docs: readonly ResourceDoc[], actorId: string, dryRun: boolean) {
  const out: ImportedRecord[] = [];
  for (const doc of docs.filter(isRecordResource)) {
    const def: ObjectDef | undefined = svc.defs.byName(org.id, doc.object);
    const { object: _o, resource: _r, _id, ...body } = doc;
    if (!def?.custom || typeof _id !== 'string') continue;
    const { values, faults } = validateInput(def, body, 'create');
    if (faults.length > 0) continue;
    const old = svc.store.get(org.id, def, _id)?.doc;
    const owner = old?.owner ?? reference('account', actorId);
    const write: HookedWrite = {
      org,
      def,
      op: old ? 'update' : 'create',
      id: _id,
      next: { ...values, owner } as Doc,
      ...(old ? { old } : {}),
      modified: loadedPaths(values, old),
      actorId,
      dryRun,
      memo: newMemo(),
    };
    out.push({ resource: doc.resource, write });
  }
  return out;
}

/**
 * Runs the before triggers of every imported record, in the import's order; answers what they
 * changed by resource, and the records (for `afterImportTriggers`). Throws the fault of the first
 * trigger that refuses.
 */
export async function beforeImportTriggers(
  svc: Service,
  org: Org,
  docs: readonly ResourceDoc[],
  opts: { actorId: string; dryRun: boolean },
): Promise<{ changed: Map<string, Record<string, Json>>; records: ImportedRecord[] }> {
  // Asked for triggers that this service cannot run: refused, never an import without them.
  const hooks = loadTriggerHooks(svc);
  const changed = new Map<string, Record<string, Json>>();
  const records = importedRecords(svc, org, docs, opts.actorId, opts.dryRun);
  for (const { resource, write } of records) {
    const values = await beforeLoadTriggers(svc, hooks, write);
    if (values) changed.set(resource, values);
  }
  return { changed, records };
}

/** Once the import committed: each written record's after triggers (never rejects). */
export async function afterImportTriggers(svc: Service, records: readonly ImportedRecord[]): Promise<void> {
  const hooks = loadTriggerHooks(svc);
  for (const { write } of records) await afterLoadTriggers(svc, hooks, write);
}
