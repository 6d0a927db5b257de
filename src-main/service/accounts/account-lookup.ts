import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { presentRecord } from '../objects/present.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { ACCESS } from '../access/objects.js';
import { accountDef } from './accounts.js';
import type { CredentialRow } from './credentials.js';

/** An account id (from a path) that names an account of this org; its faults name `id`. */
export function existingAccount(svc: Service, org: Org, id: string): string {
  if (!OBJECT_ID_PATTERN.test(id)) {
    throw fault('invalidArgument', 'invalidObjectId', { path: 'id', reason: 'Account ids are 24 hex characters.' });
  }
  if (!svc.store.get(org.id, accountDef(svc, org), id)) {
    throw fault('notFound', 'instance', { reason: `There is no account ${id}.` });
  }
  return id;
}

/** The account as an administrator sees it (the answer of the account-administration routes). */
export function presentAccount(svc: Service, org: Org, accountId: string) {
  const def = accountDef(svc, org);
  const record = svc.store.get(org.id, def, accountId);
  if (!record) throw fault('notFound', 'instance', { reason: `There is no account ${accountId}.` });
  return presentRecord(def, record, ACCESS.admin);
}

/** The account's credentials; notFound when the account was deleted meanwhile. */
export function accountCredentials(svc: Service, org: Org, accountId: string): CredentialRow {
  const cred = svc.credentials.byAccount(org.id, accountId);
  if (!cred) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
  return cred;
}
