/**
 * Deleting a record as a caller, for every writer (REST `DELETE`, the driver's deleteOne and
 * deleteMany, scripts), through the one write path (write.ts). With `dryRun` every check runs and
 * nothing is deleted.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import {
  REQUIRED,
  assertWholeObject,
  connectionLevelViaContext,
  levelOf,
  requireScope,
  type Caller,
} from '../access/objects.js';
import { denied, notFoundInstance } from './object-def.js';
import { readRecord } from './read.js';
import { commitWrite } from './write.js';
import { afterDelete } from './consequences.js';

export function deleteRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  opts: { dryRun?: boolean } = {},
): void {
  assertWholeObject(requireScope(caller, 'delete', def, id), 'deleting an object');
  const { level, record: target } =
    def.name === 'connection' ? revocable(svc, org, caller, def, id) : readRecord(svc, org, caller, def, id);
  if (level < REQUIRED.delete) throw denied(def, 'delete', level);
  if (def.name === 'account' && id === caller.accountId) {
    throw fault('accessDenied', undefined, { reason: 'You cannot delete your own account.' });
  }
  const dryRun = opts.dryRun === true;
  const event = { op: 'delete', org, def, id, current: target, actorId: caller.accountId, caller, dryRun } as const;
  const deleted = commitWrite(svc, event, () => {
    if (dryRun) return true;
    const ok = svc.store.delete(org.id, def, id);
    if (ok) afterDelete(svc, org, def, id, target);
    return ok;
  });
  if (!deleted) throw notFoundInstance(def, id);
}

/**
 * A connection as its deleter sees it: their own level on it, or delete when they may share its
 * context (the record's owner revokes a grantee's onward shares too).
 */
function revocable(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string) {
  const record = svc.store.get(org.id, def, id);
  const level = record
    ? Math.max(levelOf(svc, org, caller, def, record), connectionLevelViaContext(svc, org, caller, record))
    : 0;
  if (!record || level < REQUIRED.read) throw notFoundInstance(def, id);
  return { record, level };
}
