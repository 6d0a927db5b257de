/**
 * The trigger phase of loads (issue 41, docs/scripting.md#triggers): records an operator loads
 * rather than a caller sends — an environment import (environment/import-triggers.ts) and the
 * command line's NDJSON loads (file-import.ts) — run their triggers only when the load asks for
 * them, as the original's imports. The same phase as a caller's write (write-hooks.ts): a record's
 * before triggers run ahead of the load's transaction (a script run is asynchronous; a transaction
 * waits for nothing) and may change it or refuse it; its after triggers run once the load
 * committed, with the memo its before triggers left (each record has its own).
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Doc, Json } from '../objects/validate.js';
import { writeHooks, type HookedWrite, type WriteHooks } from './write-hooks.js';

export type LoadTriggerHooks = Required<Pick<WriteHooks, 'has' | 'before' | 'after'>>;

/** Properties the service sets on every write: never a trigger's `modified` path of a load. */
const BOOKKEEPING = new Set(['_id', 'object', 'created', 'updated', 'updater', 'owner', 'access']);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The paths a replace of `old` by `values` changes (every path on a create). */
export function loadedPaths(values: Record<string, Json>, old: Doc | undefined): string[] {
  if (!old) return Object.keys(values).filter((k) => !BOOKKEEPING.has(k));
  const keys = new Set([...Object.keys(values), ...Object.keys(old)]);
  return [...keys].filter((k) => !BOOKKEEPING.has(k) && !sameJson(values[k], old[k])).sort();
}

/** The service's trigger phase; a load that asks for triggers where none can run is refused, never run without them. */
export function loadTriggerHooks(svc: Service): LoadTriggerHooks {
  const { has, before, after } = writeHooks(svc);
  if (!has || !before || !after) {
    throw fault('unsupportedOperation', 'import.triggers', {
      path: 'triggers',
      reason: 'This service runs no triggers here; import without triggers.',
    });
  }
  return { has, before, after };
}

/**
 * A loaded record's before triggers: answers the top-level values they changed (undefined when
 * none ran or none changed anything) and adds them to `write.modified`. Throws the refusal.
 */
export async function beforeLoadTriggers(
  svc: Service,
  hooks: LoadTriggerHooks,
  write: HookedWrite,
): Promise<Record<string, Json> | undefined> {
  if (write.op === 'update' && write.modified.length === 0) return undefined;
  if (!hooks.has(svc, write, 'before')) return undefined;
  const values = await hooks.before(svc, write);
  if (values) write.modified = [...new Set([...write.modified, ...Object.keys(values)])].sort();
  return values;
}

/** Once the load committed: a written record's after triggers, as stored (never rejects). */
export async function afterLoadTriggers(svc: Service, hooks: LoadTriggerHooks, write: HookedWrite): Promise<void> {
  if (write.op === 'update' && write.modified.length === 0) return;
  if (!hooks.has(svc, write, 'after')) return;
  const stored = svc.store.get(write.org.id, write.def, write.id);
  if (!stored) return;
  await hooks.after(svc, { ...write, next: stored.doc, dryRun: false });
}
