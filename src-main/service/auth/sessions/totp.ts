import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, six digits, 30-second steps. */
export const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the previous and next step are accepted too (clock drift between phone and service). */
export const TOTP_WINDOW = 1;

const CODE_PATTERN = /^[0-9]{6}$/;

/** A new random seed (160 bits, RFC 4226's recommendation), in base32 for authenticator apps. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUrl(secretBase32: string, issuer: string, label: string): string {
  return new TOTP({ ...TOTP_PARAMS, issuer, label, secret: Secret.fromBase32(secretBase32) }).toString();
}

export function totpStep(now: number): number {
  return TOTP.counter({ period: TOTP_PARAMS.period, timestamp: now });
}

/**
 * The time step a code belongs to (within ±TOTP_WINDOW of `now`), or null when it matches none.
 * Whether that step was already used is the caller's check (`CredentialRepository.useTotpStep`).
 */
export function matchTotpStep(secretBase32: string, code: string, now: number): number | null {
  if (!CODE_PATTERN.test(code)) return null;
  const delta = TOTP.validate({
    ...TOTP_PARAMS,
    token: code,
    secret: Secret.fromBase32(secretBase32),
    timestamp: now,
    window: TOTP_WINDOW,
  });
  return delta === null ? null : totpStep(now) + delta;
}

/** A code for `now` (tests, and the console's enrolment preview if ever needed). */
export function totpCode(secretBase32: string, now: number): string {
  return TOTP.generate({ ...TOTP_PARAMS, secret: Secret.fromBase32(secretBase32), timestamp: now });
}
