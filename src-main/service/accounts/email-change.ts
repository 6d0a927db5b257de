import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { normaliseEmail } from './credentials.js';

/**
 * Moves an account's login email. Emails compare without letter case (they are stored
 * lower-cased), so `Bob@x.test` collides with `bob@x.test`: that is a 409 `exists.email`, checked here
 * rather than left to the unique index (whose error was an unexplained 500). Call inside the write
 * transaction that changes the record, so the check and the write cannot be split.
 */
export function changeLoginEmail(svc: Service, orgId: number, accountId: string, email: string): void {
  const normalised = normaliseEmail(email);
  const holder = svc.credentials.byEmail(orgId, normalised);
  if (holder && holder.account_id !== accountId) {
    throw fault('exists', 'email', { path: 'email', reason: 'An account with this email already exists.' });
  }
  svc.credentials.setEmail(orgId, accountId, normalised);
}
