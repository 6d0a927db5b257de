import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { accountDef } from '../../accounts/accounts.js';
import type { TicketPurpose } from './account-tickets.js';
import { systemUpdate } from '../../objects/system-writes.js';

/** Uses a ticket; its faults keep the wire's word, "token" (the spec's field and errCodes). */
export function consumeTicket(svc: Service, purpose: TicketPurpose, org: Org, ticket: string): string {
  const result = svc.accountTickets.consume(purpose, org.id, ticket, svc.clock.now());
  if (result.ok) return result.accountId;
  if (result.why === 'expired') throw fault('expired', 'token', { reason: 'The token expired; ask for a new one.' });
  throw fault('accessDenied', 'invalidToken', { reason: 'The token is not valid or was already used.' });
}

/**
 * The owner proves their email with the ticket the registration mail carried. Using the ticket and
 * verifying are one write: a failed update leaves the ticket unused. Returns the account id.
 */
export function verifyEmail(svc: Service, org: Org, ticket: string): string {
  return svc.db
    .transaction(() => {
      const id = consumeTicket(svc, 'verify', org, ticket);
      systemUpdate(svc.store, 'verification', org.id, accountDef(svc, org), id, { state: 'verified' });
      return id;
    })
    .immediate();
}

/** An administrator marks an account verified (no ticket). */
export function markVerified(svc: Service, org: Org, accountId: string): void {
  systemUpdate(svc.store, 'verification', org.id, accountDef(svc, org), accountId, { state: 'verified' });
}
