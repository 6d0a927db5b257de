import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { checkPasswordStrength } from '../../accounts/accounts.js';
import { hashPassword, verifyPassword } from '../../accounts/password.js';
import { accountCredentials } from '../../accounts/account-lookup.js';
import { normaliseEmail, type CredentialRow } from '../../accounts/credentials.js';
import { limitAnonymousRequest } from '../../accounts/anonymous-limits.js';
import type { NewMessage } from '../../accounts/outbox.js';
import { RESET_TICKET_TTL_MS } from './account-tickets.js';
import { consumeTicket } from './email-verification.js';
import { accountLockedFault, beginCredentialAttempt, invalidCredentials, unlockAccount } from './credential-lockout.js';

/**
 * The current password, checked like a login's: a locked account is refused, a wrong one counts
 * toward lock-out. A stolen session alone must not enrol an authenticator (locking the owner out)
 * or remove one.
 */
export async function requireCurrentPassword(
  svc: Service,
  org: Org,
  cred: CredentialRow,
  given: string,
): Promise<void> {
  const attempt = await beginCredentialAttempt(svc, org, cred.account_id);
  if (!attempt) throw accountLockedFault();
  try {
    if (!(await verifyPassword(given, cred.password_hash))) {
      throw invalidCredentials('The current password is wrong.', attempt.fail());
    }
    // The right password is no guess against the account: the reserved attempt stops counting.
    attempt.release();
  } finally {
    attempt.close();
  }
}

/**
 * The owner changes their password, giving the current one (a wrong one counts toward lock-out).
 * Every session of the account ends and any reset link stops working; the caller's HTTP layer
 * starts the fresh session the owner continues in.
 */
export async function changeOwnPassword(
  svc: Service,
  org: Org,
  accountId: string,
  current: string,
  password: string,
): Promise<void> {
  const next = checkPasswordStrength(password);
  const cred = accountCredentials(svc, org, accountId);
  const attempt = await beginCredentialAttempt(svc, org, cred.account_id);
  if (!attempt) throw accountLockedFault();
  try {
    if (!(await verifyPassword(current, cred.password_hash))) {
      throw invalidCredentials('The current password is wrong.', attempt.fail());
    }
    // The right password ends the window of failures (unless guesses race alongside it).
    if (!attempt.succeed()) throw accountLockedFault();
  } finally {
    attempt.close();
  }
  svc.credentials.setPassword(org.id, cred.account_id, await hashPassword(next));
  svc.accountTickets.voidAll('reset', org.id, cred.account_id);
  svc.sessions.endForAccount(org.id, cred.account_id, 'passwordChanged');
}

/**
 * A reset link for `email`, sent through the outbox. Trust boundary: the answer is the same whether
 * or not the email belongs to an account, and so is the work (issue #13 item 7): for an unknown
 * email the same ticket and message are made and written, then rolled back, so the time taken does
 * not tell either.
 */
export function requestPasswordReset(svc: Service, org: Org, email: string): void {
  const now = svc.clock.now();
  limitAnonymousRequest(svc.requestCounters, org, 'passwordReset', email, now);
  const cred = svc.credentials.byEmail(org.id, email);
  const send = () => {
    const accountId = cred?.account_id ?? svc.store.newId();
    const recipient = cred?.email ?? normaliseEmail(email);
    const ticket = svc.accountTickets.issue('reset', org.id, accountId, RESET_TICKET_TTL_MS, now);
    svc.outbox.add(org.id, resetMessage(org, accountId, recipient, ticket), now);
  };
  if (cred) svc.db.transaction(send).immediate();
  else rolledBack(svc, send);
}

/**
 * A new password with the ticket of a reset link. The slow hash first, then the ticket and every
 * change it allows in one write: a ticket is never used up by a reset that did not happen.
 */
export async function resetPassword(svc: Service, org: Org, ticket: string, password: string): Promise<void> {
  const hash = await hashPassword(checkPasswordStrength(password));
  svc.db
    .transaction(() => {
      const accountId = consumeTicket(svc, 'reset', org, ticket);
      svc.credentials.setPassword(org.id, accountId, hash);
      svc.accountTickets.voidAll('reset', org.id, accountId);
      unlockAccount(svc, org, accountId);
      svc.sessions.endForAccount(org.id, accountId, 'passwordReset');
    })
    .immediate();
}

/**
 * An administrator sets a new password (the strength rule applies); the account's sessions end and
 * any reset link it was sent stops working, as after a reset by the owner.
 */
export async function setPasswordByAdmin(svc: Service, org: Org, accountId: string, password: string): Promise<void> {
  const next = checkPasswordStrength(password);
  svc.credentials.setPassword(org.id, accountId, await hashPassword(next));
  svc.accountTickets.voidAll('reset', org.id, accountId);
  svc.sessions.endForAccount(org.id, accountId, 'passwordReset');
}

const ROLLBACK = Symbol('rollback');

/** Runs `work` in a write transaction and rolls it back: the same cost, nothing kept. */
function rolledBack(svc: Service, work: () => void): void {
  try {
    svc.db
      .transaction(() => {
        work();
        throw ROLLBACK;
      })
      .immediate();
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
}

function resetMessage(org: Org, accountId: string, email: string, ticket: string): NewMessage {
  return {
    accountId,
    kind: 'passwordReset',
    recipient: email,
    subject: 'Reset your password',
    body: `To choose a new password, send POST /${org.code}/v2/accounts/reset-password with {"token":"${ticket}","password":"<new password>"}. The token is valid for one hour and works once. If you did not ask for this, ignore this message.`,
  };
}
