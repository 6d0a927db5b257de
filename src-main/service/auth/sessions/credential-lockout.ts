import { fault, makeFault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { accountDef } from '../../accounts/accounts.js';

/** Locked "until an administrator unlocks" (lockDuration 0). */
const LOCKED_FOREVER = Number.MAX_SAFE_INTEGER;

/*
 * Lock-out (decisions §5), shared by every check of a credential: passwords at login and at a
 * password change, and authenticator codes at login and when removing the authenticator.
 */

/**
 * Reserves one guess before it is evaluated (decisions §5: at most `lockAttempts` guesses are ever
 * evaluated per window, however many arrive at once). In one immediate transaction — the write
 * lock, so other requests and other processes on the data folder wait — it checks the lock and
 * counts the attempt as a failure in advance; the slow hash runs afterwards. Returns false when
 * the account is locked or the window's guesses are all taken (by guesses still being evaluated):
 * the caller refuses without evaluating. After a true, the caller ends the attempt with
 * `failCredentialAttempt`, `releaseCredentialAttempt` or `unlockAccount` (success).
 */
export function beginCredentialAttempt(svc: Service, org: Org, accountId: string): boolean {
  return svc.db
    .transaction((): boolean => {
      const cred = svc.credentials.byAccount(org.id, accountId);
      if (!cred || isLocked(svc, org, cred)) return false;
      return svc.credentials.recordFailure(org.id, accountId) <= org.settings.lockAttempts;
    })
    .immediate();
}

/** The reserved guess was wrong: it already counts; at the org's `lockAttempts` the account locks. */
export function failCredentialAttempt(svc: Service, org: Org, accountId: string): void {
  svc.db
    .transaction(() => {
      const failures = svc.credentials.byAccount(org.id, accountId)?.failed_attempts ?? 0;
      if (failures >= org.settings.lockAttempts) lockNow(svc, org, accountId);
    })
    .immediate();
}

/** The reserved attempt neither succeeded nor failed (a code still to send, say): it stops counting. */
export function releaseCredentialAttempt(svc: Service, org: Org, accountId: string): void {
  svc.credentials.releaseFailure(org.id, accountId);
}

/** Counts a failed credential check that was not reserved; at the org's `lockAttempts` the account locks. */
export function recordCredentialFailure(svc: Service, org: Org, accountId: string): void {
  const failures = svc.credentials.recordFailure(org.id, accountId);
  if (failures >= org.settings.lockAttempts) lockNow(svc, org, accountId);
}

function lockNow(svc: Service, org: Org, accountId: string): void {
  const now = svc.clock.now();
  const until = org.settings.lockDuration === 0 ? LOCKED_FOREVER : now + org.settings.lockDuration * 60_000;
  svc.credentials.lock(org.id, accountId, until);
  svc.store.update(org.id, accountDef(svc, org), accountId, { locked: true });
  // Locking takes effect now (decisions §5): the account's sessions end with it.
  svc.sessions.endForAccount(org.id, accountId, 'locked');
}

/**
 * For an account whose record says `locked`: whether it is locked now. Tokens, sessions and
 * signed-request principals of a locked account are refused; a lock-out that ran out is cleared.
 */
export function lockedNow(svc: Service, org: Org, accountId: string): boolean {
  const cred = svc.credentials.byAccount(org.id, accountId);
  return cred ? isLocked(svc, org, cred) : true;
}

export const accountLockedFault = () =>
  fault('accessDenied', 'accountLocked', { reason: 'The account is locked; an administrator can unlock it.' });

/**
 * Whether the account is locked now: by a lock-out that has not run out, or by an administrator
 * (`locked: true` on the account with no lock-out running). A lock-out that ran out is cleared,
 * on the record too: the account starts again with a clean count of failures.
 */
export function isLocked(svc: Service, org: Org, cred: { account_id: string; locked_until: number | null }): boolean {
  if (cred.locked_until !== null) {
    if (cred.locked_until > svc.clock.now()) return true;
    unlockAccount(svc, org, cred.account_id);
    cred.locked_until = null;
    return false;
  }
  return svc.store.getValues(org.id, accountDef(svc, org), cred.account_id, ['locked'])?.locked === 1;
}

/** Clears failures and the lock, on the record too (a successful login, a reset, an admin unlock). */
export function unlockAccount(svc: Service, org: Org, accountId: string): void {
  svc.credentials.clearFailures(org.id, accountId);
  const def = accountDef(svc, org);
  if (svc.store.get(org.id, def, accountId)?.doc.locked === true) {
    svc.store.update(org.id, def, accountId, { locked: false });
  }
}

/** The one fault for a wrong email, password or code: it never says which part was wrong. */
export const invalidCredentials = (reason = 'Invalid email/password combination.') =>
  fault('accessDenied', 'invalidCredentials', { reason });

export const accountLocked = () =>
  fault('accessDenied', 'invalidCredentials', {
    reason: 'Invalid email/password combination.',
    faults: [makeFault('accessDenied', 'accountLocked', { reason: 'The account is locked.' })],
  });
