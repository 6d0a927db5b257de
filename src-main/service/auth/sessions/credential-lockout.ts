import { fault, makeFault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { accountDef } from '../../accounts/accounts.js';
import { attemptQueueOf, type Admission } from './attempt-queue.js';
import { systemUpdate } from '../../objects/system-writes.js';

/** Locked "until an administrator unlocks" (lockDuration 0). */
const LOCKED_FOREVER = Number.MAX_SAFE_INTEGER;

/*
 * Lock-out (docs/sessions.md), shared by every check of a credential: passwords at login and at a
 * password change, and authenticator codes at login and when removing the authenticator.
 *
 * `failed_attempts` counts, across processes, the guesses that failed plus those still being
 * evaluated: a slot is reserved before the slow hash, so guesses racing in at once cannot outrun
 * `lockAttempts`. Which of the reserved ones are still in flight is known per process (the attempt
 * queue), and only evaluated failures lock the account. An attempt that finds every slot held
 * waits for one (bounded) rather than being answered "locked" while the account is not.
 */

const keyOf = (org: Org, accountId: string) => `account:${org.id}:${accountId}`;

/**
 * One admitted check of a credential. End it exactly once with `fail`, `release` or `succeed`;
 * `close` (for a `finally`) counts an attempt left unended — an unexpected error — as failed,
 * which is what its reservation already said.
 */
export class CredentialAttempt {
  private ended = false;

  constructor(
    private readonly svc: Service,
    private readonly org: Org,
    private readonly accountId: string,
  ) {}

  /** The guess was wrong: it counts. Returns whether the account is locked now (this guess may have locked it). */
  fail(): boolean {
    return this.end(() => {
      const cred = this.svc.credentials.byAccount(this.org.id, this.accountId);
      if (!cred) return true;
      if (isLocked(this.svc, this.org, cred)) return true;
      if (cred.failed_attempts - this.othersInFlight() < this.org.settings.lockAttempts) return false;
      lockNow(this.svc, this.org, this.accountId);
      return true;
    });
  }

  /** Neither right nor wrong (a code still to send, say): the reservation stops counting. */
  release(): void {
    this.end(() => this.svc.credentials.releaseFailure(this.org.id, this.accountId));
  }

  /**
   * The credential was right. Returns false when the account was locked meanwhile (by an
   * administrator): the caller refuses. A success ends the window of failures only when no other
   * check of the account runs or waits here — wrong guesses racing alongside it still count, so a
   * burst mixing right and wrong passwords cannot evaluate more than `lockAttempts` wrong ones.
   */
  succeed(): boolean {
    return this.end(() => {
      const cred = this.svc.credentials.byAccount(this.org.id, this.accountId);
      if (!cred || isLocked(this.svc, this.org, cred)) {
        this.svc.credentials.releaseFailure(this.org.id, this.accountId);
        return false;
      }
      const queue = attemptQueueOf(this.svc);
      if (this.othersInFlight() === 0 && queue.waiters(keyOf(this.org, this.accountId)) === 0) {
        unlockAccount(this.svc, this.org, this.accountId);
      } else {
        this.svc.credentials.releaseFailure(this.org.id, this.accountId);
      }
      return true;
    });
  }

  close(): void {
    if (!this.ended) this.fail();
  }

  /** This process's other admitted attempts on the account: their reservations are not failures (yet). */
  private othersInFlight(): number {
    return attemptQueueOf(this.svc).inFlight(keyOf(this.org, this.accountId)) - 1;
  }

  private end<T>(work: () => T): T {
    if (this.ended) throw new Error('credential attempt ended twice');
    this.ended = true;
    try {
      return this.svc.db.transaction(work).immediate();
    } finally {
      // After the write: woken waiters then see the lock, or the slot this attempt freed.
      attemptQueueOf(this.svc).end(keyOf(this.org, this.accountId));
    }
  }
}

/**
 * Reserves a slot for one guess before it is evaluated (docs/sessions.md: at most `lockAttempts`
 * guesses are ever evaluated per window, however many arrive at once). The check and the
 * reservation run in one immediate transaction — the write lock, so other requests and other
 * processes on the data folder wait. Returns undefined when the account is locked: the caller
 * refuses without evaluating (`accountLockedFault`). When every slot is held by guesses still being
 * evaluated, it waits for one; throws a throttled or timeout fault when that wait cannot be had.
 */
export async function beginCredentialAttempt(
  svc: Service,
  org: Org,
  accountId: string,
): Promise<CredentialAttempt | undefined> {
  const tryBegin = (): Admission =>
    svc.db
      .transaction((): Admission => {
        const cred = svc.credentials.byAccount(org.id, accountId);
        if (!cred || isLocked(svc, org, cred)) return 'locked';
        // Read again: a lock-out that ran out was just cleared, its failures with it.
        const failed = svc.credentials.byAccount(org.id, accountId)?.failed_attempts ?? 0;
        if (failed >= org.settings.lockAttempts) {
          // Every slot is held, and by no check running here: the reservations were left by a
          // process that died mid-check (or are another process's). A reservation counts as a
          // failure, so these are failures enough to lock, not slots to wait for until a timeout.
          if (attemptQueueOf(svc).inFlight(keyOf(org, accountId)) > 0) return 'full';
          lockNow(svc, org, accountId);
          return 'locked';
        }
        svc.credentials.recordFailure(org.id, accountId);
        return 'admitted';
      })
      .immediate();
  const outcome = await attemptQueueOf(svc).admit(keyOf(org, accountId), tryBegin);
  return outcome === 'admitted' ? new CredentialAttempt(svc, org, accountId) : undefined;
}

function lockNow(svc: Service, org: Org, accountId: string): void {
  const now = svc.clock.now();
  const until = org.settings.lockDuration === 0 ? LOCKED_FOREVER : now + org.settings.lockDuration * 60_000;
  svc.credentials.lock(org.id, accountId, until);
  systemUpdate(svc.store, 'lockout', org.id, accountDef(svc, org), accountId, { locked: true });
  // Locking takes effect now (docs/sessions.md): the account's sessions end with it.
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

/**
 * The answer to any use of an account that is already locked — a login, even with the right
 * password, included: top-level `accountLocked` (docs/compatibility.md#requests-cookies-and-fault-codes, "top-level once locked",
 * which wins over the child form of docs/faults.md).
 */
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
    systemUpdate(svc.store, 'lockout', org.id, def, accountId, { locked: false });
  }
}

/**
 * The one fault for a wrong email, password or code: it never says which part was wrong. The
 * wrong guess that leaves the account locked says so in a child `accountLocked` (docs/faults.md);
 * later attempts get the top-level `accountLockedFault`.
 */
export const invalidCredentials = (reason = 'Invalid email/password combination.', locked = false) =>
  fault('accessDenied', 'invalidCredentials', { reason, ...lockedChild(locked) });

/** The child `accountLocked` of the fault answering the wrong guess that left the account locked. */
export const lockedChild = (locked: boolean) =>
  locked ? { faults: [makeFault('accessDenied', 'accountLocked', { reason: 'The account is locked.' })] } : {};
