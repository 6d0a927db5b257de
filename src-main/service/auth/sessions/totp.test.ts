import { describe, expect, it } from 'vitest';
import { matchTotpStep, newTotpSecret, totpCode, totpStep, totpUrl } from './totp.js';

/** RFC 6238 appendix B: the SHA-1 seed is the ASCII string "12345678901234567890". */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP = 30_000;
/** The start of a time step (2026-01-15T12:00:00Z is a multiple of 30 s). */
const T0 = Date.parse('2026-01-15T12:00:00.000Z');

describe('totp', () => {
  it('produces the RFC 6238 SHA-1 test vectors (last six digits)', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 2_000_000_000_000)).toBe('279037');
  });

  it('accepts the steps −1, 0 and +1 and names the step; refuses ±2', () => {
    const secret = newTotpSecret();
    const s = totpStep(T0);
    expect(T0 % STEP).toBe(0);
    for (const d of [-1, 0, 1]) expect(matchTotpStep(secret, totpCode(secret, T0 + d * STEP), T0)).toBe(s + d);
    for (const d of [-2, 2]) expect(matchTotpStep(secret, totpCode(secret, T0 + d * STEP), T0)).toBeNull();
  });

  it('moves the window exactly at step boundaries', () => {
    const secret = newTotpSecret();
    const previous = totpCode(secret, T0 - STEP); // step s−1
    const lastMsOfStep = T0 + STEP - 1; // still step s: s−1 is within one step
    expect(matchTotpStep(secret, previous, lastMsOfStep)).toBe(totpStep(T0) - 1);
    expect(matchTotpStep(secret, previous, lastMsOfStep + 1)).toBeNull(); // now step s+1: s−1 is two back
    const next = totpCode(secret, T0 + STEP); // step s+1
    expect(matchTotpStep(secret, next, T0 - 1)).toBeNull(); // step s−1: s+1 is two ahead
    expect(matchTotpStep(secret, next, T0)).toBe(totpStep(T0) + 1);
  });

  it('refuses malformed codes before computing anything', () => {
    const secret = newTotpSecret();
    const good = totpCode(secret, T0);
    for (const bad of ['', good.slice(0, 5), `${good}0`, ` ${good}`, 'abcdef', `${good.slice(0, 5)}x`]) {
      expect(matchTotpStep(secret, bad, T0)).toBeNull();
    }
  });

  it('makes 160-bit base32 secrets and authenticator URLs', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
    const url = new URL(totpUrl(a, 'demo', 'someone@example.test'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(url.searchParams.get('secret')).toBe(a);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(url.searchParams.get('issuer')).toBe('demo');
  });
});
