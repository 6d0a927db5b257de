/**
 * Writing a record that an operator loads rather than a caller sends: environment import and
 * deployments (environment/apply.ts) and the CLI's NDJSON loads (file-import.ts). No caller's
 * access applies (whoever runs them administers the org, or the data folder), but the record rules
 * and hooks of the one write path (write.ts) do, as for every write.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord, WriteMeta } from '../objects/stored-record.js';
import { notFoundInstance } from './object-def.js';
import { commitWrite } from './write.js';

export interface LoadOptions {
  /** The stored record the values change; without it, a new record. */
  current?: StoredRecord;
  /** The values replace the current record (keeping its owner and creation date), not merge into it. */
  replace?: boolean;
  /** The account the load runs as (the updater); undefined for the CLI's loads. */
  actorId?: string;
  /** A new record's `_id`, `created` and `updated`, when the load gives them. */
  meta?: Omit<WriteMeta, 'updaterId'>;
}

export function loadRecord(
  svc: Service,
  org: Org,
  def: ObjectDef,
  values: Record<string, Json>,
  opts: LoadOptions = {},
): StoredRecord {
  const { current, actorId } = opts;
  const updater = actorId !== undefined ? { updaterId: actorId } : {};
  const by = actorId !== undefined ? { actorId } : {};
  if (current) {
    const event = { op: 'update', org, def, id: current._id, values, current, dryRun: false, ...by } as const;
    const write = opts.replace ? { ...updater, replace: true, keep: ['owner'] } : updater;
    return commitWrite(
      svc,
      event,
      () => svc.store.update(org.id, def, current._id, values, write) ?? throwNotFound(def, current._id),
      { replace: opts.replace === true },
    );
  }
  const event = { op: 'create', org, def, values, dryRun: false, ...by } as const;
  return commitWrite(svc, event, () => svc.store.insert(org.id, def, values, { ...opts.meta, ...updater }));
}

function throwNotFound(def: ObjectDef, id: string): never {
  throw notFoundInstance(def, id);
}
