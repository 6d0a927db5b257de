import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/harness.js';
import { LOCATION_CODE_MAX_ATTEMPTS, LOCATION_CODE_TTL_MS, LocationRepository } from './location.js';

let h: Harness;
let repo: LocationRepository;
let orgId: number;
const ACCOUNT = 'a'.repeat(24);
beforeEach(async () => {
  h = await createHarness();
  repo = new LocationRepository(h.svc.db);
  orgId = h.svc.orgs.byCode('demo')!.id;
});
afterEach(async () => h.close());

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('known locations and codes', () => {
  it('issues six-digit codes, stores only a salted hash, and remembers the location once verified', () => {
    const now = h.clock.now();
    const code = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', now);
    expect(code).toMatch(/^\d{6}$/);
    const stored = h.svc.db.prepare('SELECT code_hash FROM location_verifications').get() as { code_hash: string };
    expect(stored.code_hash).not.toContain(code);
    expect(repo.isKnown(orgId, ACCOUNT, 'fp-one-12')).toBe(false);
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', code, now)).toBe('ok');
    expect(repo.isKnown(orgId, ACCOUNT, 'fp-one-12')).toBe(true);
    // A code is used once.
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', code, now)).toBe('none');
  });

  it('is valid up to and including ten minutes, and expired one millisecond later', () => {
    const t = h.clock.now();
    const code = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', code, t + LOCATION_CODE_TTL_MS + 1)).toBe('expired');
    const again = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', again, t + LOCATION_CODE_TTL_MS)).toBe('ok');
  });

  it('allows five tries: the sixth is refused even with the right code', () => {
    const t = h.clock.now();
    const code = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    for (let i = 0; i < LOCATION_CODE_MAX_ATTEMPTS - 1; i++) {
      expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', wrongCode(code), t)).toBe('wrong');
    }
    // The fifth try may still be the right one...
    const code2 = repo.startVerification(orgId, ACCOUNT, 'fp-two-12', t);
    for (let i = 0; i < LOCATION_CODE_MAX_ATTEMPTS - 1; i++)
      repo.verify(orgId, ACCOUNT, 'fp-two-12', wrongCode(code2), t);
    expect(repo.verify(orgId, ACCOUNT, 'fp-two-12', code2, t)).toBe('ok');
    // ...but after five wrong ones nothing is accepted.
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', wrongCode(code), t)).toBe('wrong');
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', code, t)).toBe('expired');
  });

  it('binds a code to its account and fingerprint', () => {
    const t = h.clock.now();
    const code = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    expect(repo.verify(orgId, ACCOUNT, 'fp-other-12', code, t)).toBe('none');
    expect(repo.verify(orgId, 'b'.repeat(24), 'fp-one-12', code, t)).toBe('none');
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', code, t)).toBe('ok');
  });

  it('a new code replaces the pending one; forgetting an account clears locations and codes', () => {
    const t = h.clock.now();
    const first = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    let second = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    while (second === first) second = repo.startVerification(orgId, ACCOUNT, 'fp-one-12', t);
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', first, t)).toBe('wrong');
    repo.remember(orgId, ACCOUNT, 'fp-known-1', t);
    repo.forgetAccount(orgId, ACCOUNT);
    expect(repo.isKnown(orgId, ACCOUNT, 'fp-known-1')).toBe(false);
    expect(repo.verify(orgId, ACCOUNT, 'fp-one-12', second, t)).toBe('none');
  });
});
