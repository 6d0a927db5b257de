import { fault, type FaultBody } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { CredentialRow } from '../../accounts/credentials.js';
import { matchTotpStep, newTotpSecret, totpUrl } from './totp.js';

/** New-location codes sent per account per window (issue #13 item 6): each code allows 5 tries. */
export const LOCATION_CODES_PER_WINDOW = 5;
export const LOCATION_CODE_WINDOW_MS = 60 * 60_000;

export type TotpState = 'none' | 'pending' | 'active';

/** What the second factor of a login with a correct password says. */
export type SecondFactor =
  | { kind: 'ok' }
  | { kind: 'totpRequired' }
  | { kind: 'totpWrong' }
  | { kind: 'newLocation' }
  | { kind: 'locationWrong' }
  | { kind: 'locationExpired' };

export interface SecondFactorInput {
  totp?: string;
  /** The new-location code, sent on the wire as `location.verificationToken`. */
  locationCode?: string;
  fingerprint: string;
}

/** The answer to a login from an unknown location: a fault with HTTP status 200 (docs/faults.md). */
export function newLocationFault(): FaultBody {
  return {
    object: 'fault',
    name: 'location',
    code: 'kNewLocation',
    errCode: 'service.success.newLocation',
    status: 200,
    message: 'New location. A verification code was sent.',
    reason: 'Log in again from this browser with location.verificationToken set to the code.',
  };
}

/**
 * Two-factor authentication (docs/sessions.md): an authenticator (TOTP) when the account enrolled one,
 * otherwise new-location verification when the org turns it on. An account with an active
 * authenticator is not asked for location codes as well: TOTP is the stronger second factor, and
 * asking for both would burn the TOTP step on the first try (each step is accepted once).
 */
export class TwoFactor {
  constructor(private readonly svc: Service) {}

  totpState(cred: CredentialRow): TotpState {
    if (cred.totp_secret_enc === null) return 'none';
    return cred.totp_last_step === null ? 'pending' : 'active';
  }

  /** Starts an enrolment: a new pending secret, replacing any earlier pending one. */
  enrolTotp(org: Org, cred: CredentialRow): { secret: string; otpauthUrl: string } {
    const secret = newTotpSecret();
    this.svc.credentials.setPendingTotp(org.id, cred.account_id, this.svc.cipher.encrypt(secret));
    return { secret, otpauthUrl: totpUrl(secret, org.name, cred.email) };
  }

  /** Checks a code against the account's secret and uses its step; a step is accepted once only. */
  useTotp(cred: CredentialRow, code: string | undefined): boolean {
    if (cred.totp_secret_enc === null || code === undefined) return false;
    const step = matchTotpStep(this.svc.cipher.decrypt(cred.totp_secret_enc), code, this.svc.clock.now());
    return step !== null && this.svc.credentials.useTotpStep(cred.org_id, cred.account_id, step);
  }

  /** The second factor of a login whose password was right. Remembers the location on success. */
  check(org: Org, cred: CredentialRow, input: SecondFactorInput): SecondFactor {
    const now = this.svc.clock.now();
    const accountId = cred.account_id;
    if (this.totpState(cred) === 'active') {
      if (input.totp === undefined || input.totp === '') return { kind: 'totpRequired' };
      if (!this.useTotp(cred, input.totp)) return { kind: 'totpWrong' };
    } else if (org.settings.verifyNewLocations && !this.svc.locations.isKnown(org.id, accountId, input.fingerprint)) {
      if (input.locationCode !== undefined) {
        const result = this.svc.locations.verify(org.id, accountId, input.fingerprint, input.locationCode, now);
        if (result === 'wrong') return { kind: 'locationWrong' };
        if (result === 'expired') return { kind: 'locationExpired' };
        if (result === 'ok') return { kind: 'ok' };
      }
      // No code yet (or none pending for this browser): send one, at most so many per window.
      if (
        this.svc.outbox.countSince(org.id, accountId, 'locationCode', now - LOCATION_CODE_WINDOW_MS) >=
        LOCATION_CODES_PER_WINDOW
      ) {
        throw fault('throttled', 'policy', {
          reason: 'Too many location codes were sent for this account; wait before asking for another.',
        });
      }
      const code = this.svc.locations.startVerification(org.id, accountId, input.fingerprint, now);
      this.svc.outbox.add(
        org.id,
        {
          accountId,
          kind: 'locationCode',
          recipient: cred.email,
          subject: 'Your login verification code',
          body: `Someone logged in to your account from a new location. If it was you, enter the code ${code}. It expires in 10 minutes.`,
        },
        now,
      );
      return { kind: 'newLocation' };
    }
    this.svc.locations.remember(org.id, accountId, input.fingerprint, now);
    return { kind: 'ok' };
  }

  /** An administrator's reset: no authenticator, no known locations, no pending codes. */
  reset(orgId: number, accountId: string): void {
    this.svc.credentials.clearTotp(orgId, accountId);
    this.svc.locations.forgetAccount(orgId, accountId);
  }
}
