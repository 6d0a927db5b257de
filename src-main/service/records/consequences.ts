/**
 * What writing a built-in record sets off in the same transaction: a changed or deleted connection
 * takes back what its grantee passed on; an account's email is its login; unlocking an account
 * lifts a lock-out; a deleted account loses its credentials and sessions.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { changeLoginEmail } from '../accounts/email-change.js';
import { dropConnectionsOfRevokedGranters } from '../access/objects.js';

/** After a record is updated (inside its write transaction). */
export function afterUpdate(
  svc: Service,
  org: Org,
  def: ObjectDef,
  id: string,
  values: Record<string, Json>,
  record: StoredRecord,
): void {
  if (def.name === 'connection') dropConnectionsOfRevokedGranters(svc, org, contextIdOf(record));
  if (def.name === 'account' && typeof values.email === 'string') changeLoginEmail(svc, org.id, id, values.email);
  // An administrator unlocking an account also lifts a lock-out (even an indefinite one).
  if (def.name === 'account' && values.locked === false) svc.credentials.clearFailures(org.id, id);
}

/** After a record is deleted (inside its write transaction). */
export function afterDelete(svc: Service, org: Org, def: ObjectDef, id: string, deleted: StoredRecord): void {
  // Revoking a share takes back what the grantee passed on (issue #13 item 3).
  if (def.name === 'connection') dropConnectionsOfRevokedGranters(svc, org, contextIdOf(deleted));
  if (def.name === 'account') {
    svc.credentials.remove(org.id, id);
    svc.sessions.endForAccount(org.id, id, 'deleted');
  }
}

export function contextIdOf(connection: StoredRecord): string {
  const id = (connection.doc.context as { _id?: unknown } | undefined)?._id;
  return typeof id === 'string' ? id : '';
}
