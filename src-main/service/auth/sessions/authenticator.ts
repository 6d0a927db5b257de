import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { CredentialRow } from '../../accounts/credentials.js';
import { TwoFactor } from './two-factor.js';
import { requireCurrentPassword } from './password-changes.js';
import { accountLockedFault, beginCredentialAttempt, invalidCredentials } from './credential-lockout.js';

/**
 * The owner's authenticator app (TOTP): enrol with the current password, confirm with a first code,
 * remove with the password and a code. Enrolling or removing needs the current password
 * (issue #13 item 6), so a stolen session cannot lock the owner out.
 */
export async function enrolAuthenticator(svc: Service, org: Org, cred: CredentialRow, password: string) {
  const twoFactor = new TwoFactor(svc);
  if (twoFactor.totpState(cred) === 'active') {
    throw fault('exists', 'totp', { reason: 'An authenticator is already active; remove it first.' });
  }
  await requireCurrentPassword(svc, org, cred, password);
  return twoFactor.enrolTotp(org, cred);
}

/** The first code from the enrolled app makes it active. */
export function confirmAuthenticator(svc: Service, cred: CredentialRow, code: string): void {
  const twoFactor = new TwoFactor(svc);
  const state = twoFactor.totpState(cred);
  if (state === 'active') throw fault('exists', 'totp', { reason: 'The authenticator is already active.' });
  if (state === 'none') throw fault('notFound', 'totp', { reason: 'Start the enrolment first.' });
  if (!twoFactor.useTotp(cred, code)) {
    throw invalidCredentials('The authenticator code is wrong.');
  }
}

export async function removeAuthenticator(
  svc: Service,
  org: Org,
  cred: CredentialRow,
  code: string,
  password: string,
): Promise<void> {
  const twoFactor = new TwoFactor(svc);
  if (twoFactor.totpState(cred) !== 'active') throw fault('notFound', 'totp', { reason: 'No active authenticator.' });
  await requireCurrentPassword(svc, org, cred, password);
  const attempt = await beginCredentialAttempt(svc, org, cred.account_id);
  if (!attempt) throw accountLockedFault();
  try {
    if (!twoFactor.useTotp(cred, code)) {
      // A stolen session must not be able to guess its way to removing the authenticator.
      throw invalidCredentials('The authenticator code is wrong.', attempt.fail());
    }
    if (!attempt.succeed()) throw accountLockedFault();
  } finally {
    attempt.close();
  }
  svc.credentials.clearTotp(org.id, cred.account_id);
}
