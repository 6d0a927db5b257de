import { fault } from '../../../../src-shared/faults.js';
import type { ObjectDef } from '../../../../src-shared/schema/types.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { accountDef } from '../../accounts/accounts.js';
import { dummyHash, verifyPassword } from '../../accounts/password.js';
import { presentRecord } from '../../objects/present.js';
import type { StoredRecord } from '../../objects/stored-record.js';
import { callerOf } from '../../access/caller.js';
import { levelOf } from '../../access/objects.js';
import { TwoFactor } from './two-factor.js';
import { emailHash } from '../../accounts/anonymous-limits.js';
import { attemptQueueOf } from './attempt-queue.js';
import { accountLockedFault, beginCredentialAttempt, invalidCredentials, lockedChild } from './credential-lockout.js';

export interface LoginInput {
  email: string;
  password: string;
  totp?: string;
  /** The code a new location was sent (`location.verificationToken` on the wire). */
  locationCode?: string;
  /** The client's location (its fingerprint cookie, or a fresh one). */
  fingerprint: string;
}

/**
 * Either the account logged in (the caller starts its session) or the login came from a new
 * location, whose code was just sent (the caller answers the spec's new-location fault). Every
 * other outcome is a thrown fault.
 */
export type LoginOutcome =
  { kind: 'ok'; accountId: string; account: ReturnType<typeof presentAsOwnSession> } | { kind: 'newLocation' };

/**
 * The credential checks of a login (docs/sessions.md). It never says whether the email exists, and a
 * wrong email costs a hash like a wrong password.
 */
export async function checkLogin(svc: Service, org: Org, input: LoginInput): Promise<LoginOutcome> {
  const { email, password, fingerprint } = input;
  const cred = svc.credentials.byEmail(org.id, email);
  if (!cred) return refuseUnknownEmail(svc, org, email, password);
  const def = accountDef(svc, org);
  // The guess is counted before the slow hash, so guesses racing in at once cannot outrun the limit.
  const attempt = await beginCredentialAttempt(svc, org, cred.account_id);
  if (!attempt) {
    await verifyPassword(password, await dummyHash());
    throw accountLockedFault();
  }
  try {
    if (!(await verifyPassword(password, cred.password_hash))) {
      throw invalidCredentials(undefined, attempt.fail());
    }
    const record = svc.store.get(org.id, def, cred.account_id);
    if (!record) {
      attempt.release();
      throw invalidCredentials();
    }

    const second = new TwoFactor(svc).check(org, cred, {
      fingerprint,
      ...(input.totp !== undefined ? { totp: input.totp } : {}),
      ...(input.locationCode !== undefined ? { locationCode: input.locationCode } : {}),
    });
    switch (second.kind) {
      case 'totpRequired':
        attempt.release();
        throw fault('accessDenied', 'totpRequired', {
          reason: 'This account uses an authenticator app: send its current code as totp.',
        });
      case 'totpWrong':
        throw invalidCredentials('Invalid email/password/authenticator code combination.', attempt.fail());
      case 'locationWrong': {
        // A wrong code is a wrong credential: the reserved attempt counts toward the account's
        // lock-out (issue #13 item 6).
        const locked = attempt.fail();
        throw fault('accessDenied', 'locationToken', {
          reason: 'The location verification code is wrong.',
          ...lockedChild(locked),
        });
      }
      case 'locationExpired':
        attempt.release();
        throw fault('expired', 'locationToken', {
          reason: 'The location verification code expired or was tried too often; log in without it to get a new one.',
        });
      case 'newLocation':
        attempt.release();
        return { kind: 'newLocation' };
      case 'ok':
        break;
    }

    // Locked meanwhile (by an administrator): the right password does not open a locked account.
    if (!attempt.succeed()) throw accountLockedFault();
    const account = presentAsOwnSession(svc, org, def, { ...record, doc: { ...record.doc, locked: false } });
    return { kind: 'ok', accountId: cred.account_id, account };
  } finally {
    attempt.close();
  }
}

/**
 * A login for an email with no account. Counted like an account's guesses — through the same
 * attempt queue, so waits and their limits look alike too — so the lock-out faults appear for
 * unknown emails as well and do not tell who has an account (issue #13 item 7). A wrong email costs
 * a hash like a wrong password.
 */
async function refuseUnknownEmail(svc: Service, org: Org, email: string, password: string): Promise<never> {
  const queue = attemptQueueOf(svc);
  const key = `email:${org.id}:${emailHash(email)}`;
  const outcome = await queue.admit(key, () =>
    svc.unknownEmails.begin(org.id, email, org.settings, svc.clock.now(), queue.inFlight(key)),
  );
  if (outcome === 'locked') {
    await verifyPassword(password, await dummyHash());
    throw accountLockedFault();
  }
  try {
    await verifyPassword(password, await dummyHash());
    const others = queue.inFlight(key) - 1;
    throw invalidCredentials(undefined, svc.unknownEmails.fail(org.id, email, org.settings, svc.clock.now(), others));
  } finally {
    queue.end(key);
  }
}

/**
 * The account a login or registration just started a session for, with the level the session's
 * reads will show (an administrator's is 8 here too, not a fixed 5).
 */
export function presentAsOwnSession(svc: Service, org: Org, def: ObjectDef, record: StoredRecord) {
  const caller = callerOf(svc, { org, principal: { accountId: record._id, email: '', roles: [] } });
  return presentRecord(def, record, levelOf(svc, org, caller, def, record));
}
