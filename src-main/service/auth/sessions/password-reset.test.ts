import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/harness.js';
import { AccountTokenRepository, RESET_TOKEN_TTL_MS } from './password-reset.js';

let h: Harness;
let repo: AccountTokenRepository;
let orgId: number;
const ACCOUNT = 'a'.repeat(24);
beforeEach(async () => {
  h = await createHarness();
  repo = new AccountTokenRepository(h.svc.db);
  orgId = h.svc.orgs.byCode('demo')!.id;
});
afterEach(async () => h.close());

describe('one-time account tokens', () => {
  it('stores only a hash and works once', () => {
    const t = h.clock.now();
    const token = repo.issue('reset', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    expect(token).toMatch(/^[\w-]{43}$/);
    const dump = JSON.stringify(h.svc.db.prepare('SELECT * FROM password_resets').all());
    expect(dump).not.toContain(token);
    expect(repo.consume('reset', orgId, token, t)).toEqual({ ok: true, accountId: ACCOUNT });
    expect(repo.consume('reset', orgId, token, t)).toEqual({ ok: false, why: 'unknown' });
  });

  it('is valid through its expiry instant and expired one millisecond later', () => {
    const t = h.clock.now();
    const a = repo.issue('reset', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    const b = repo.issue('reset', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    expect(repo.consume('reset', orgId, a, t + RESET_TOKEN_TTL_MS).ok).toBe(true);
    expect(repo.consume('reset', orgId, b, t + RESET_TOKEN_TTL_MS + 1)).toEqual({ ok: false, why: 'expired' });
  });

  it('keeps purposes and orgs apart', () => {
    const t = h.clock.now();
    const verify = repo.issue('verify', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    expect(repo.consume('reset', orgId, verify, t)).toEqual({ ok: false, why: 'unknown' });
    expect(repo.consume('verify', orgId + 1, verify, t)).toEqual({ ok: false, why: 'unknown' });
    expect(repo.consume('verify', orgId, verify, t).ok).toBe(true);
  });

  it('voids every outstanding token of one purpose for an account', () => {
    const t = h.clock.now();
    const reset = repo.issue('reset', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    const verify = repo.issue('verify', orgId, ACCOUNT, RESET_TOKEN_TTL_MS, t);
    repo.voidAll('reset', orgId, ACCOUNT);
    expect(repo.consume('reset', orgId, reset, t).ok).toBe(false);
    expect(repo.consume('verify', orgId, verify, t).ok).toBe(true);
  });
});
