import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/harness.js';
import { AccountTicketRepository, RESET_TICKET_TTL_MS } from './account-tickets.js';

let h: Harness;
let repo: AccountTicketRepository;
let orgId: number;
const ACCOUNT = 'a'.repeat(24);
beforeEach(async () => {
  h = await createHarness();
  repo = new AccountTicketRepository(h.svc.db);
  orgId = h.svc.orgs.byCode('demo')!.id;
});
afterEach(async () => h.close());

describe('account tickets (password reset, email verification)', () => {
  it('stores only a hash and works once', () => {
    const t = h.clock.now();
    const ticket = repo.issue('reset', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    expect(ticket).toMatch(/^[\w-]{43}$/);
    const dump = JSON.stringify(h.svc.db.prepare('SELECT * FROM account_tickets').all());
    expect(dump).not.toContain(ticket);
    expect(repo.consume('reset', orgId, ticket, t)).toEqual({ ok: true, accountId: ACCOUNT });
    expect(repo.consume('reset', orgId, ticket, t)).toEqual({ ok: false, why: 'unknown' });
  });

  it('is valid through its expiry instant and expired one millisecond later', () => {
    const t = h.clock.now();
    const a = repo.issue('reset', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    const b = repo.issue('reset', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    expect(repo.consume('reset', orgId, a, t + RESET_TICKET_TTL_MS).ok).toBe(true);
    expect(repo.consume('reset', orgId, b, t + RESET_TICKET_TTL_MS + 1)).toEqual({ ok: false, why: 'expired' });
  });

  it('keeps purposes and orgs apart', () => {
    const t = h.clock.now();
    const verify = repo.issue('verify', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    expect(repo.consume('reset', orgId, verify, t)).toEqual({ ok: false, why: 'unknown' });
    expect(repo.consume('verify', orgId + 1, verify, t)).toEqual({ ok: false, why: 'unknown' });
    expect(repo.consume('verify', orgId, verify, t).ok).toBe(true);
  });

  it('voids every outstanding ticket of one purpose for an account', () => {
    const t = h.clock.now();
    const reset = repo.issue('reset', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    const verify = repo.issue('verify', orgId, ACCOUNT, RESET_TICKET_TTL_MS, t);
    repo.voidAll('reset', orgId, ACCOUNT);
    expect(repo.consume('reset', orgId, reset, t).ok).toBe(false);
    expect(repo.consume('verify', orgId, verify, t).ok).toBe(true);
  });
});
