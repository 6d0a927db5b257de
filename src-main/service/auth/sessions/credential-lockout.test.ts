/**
 * Lock-out with logins sent at once over real sockets (docs/sessions.md, docs/compatibility.md#requests-cookies-and-fault-codes): right
 * passwords are never answered "locked" while the account is not; wrong ones never exceed
 * `lockAttempts`; an account already locked answers top-level accountLocked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LIVE_ADMIN_EMAIL,
  LIVE_ADMIN_PASSWORD,
  startLiveService,
  type LiveService,
} from '../../testing/compat/live-service.js';
import type { OrgSettings } from '../../orgs/orgs.js';
import { attemptQueueOf } from './attempt-queue.js';
import { beginCredentialAttempt, type CredentialAttempt } from './credential-lockout.js';

let live: LiveService;
beforeEach(async () => {
  live = await startLiveService();
});
afterEach(async () => {
  await live.close();
});

interface Answer {
  status: number;
  body: { _id?: string; code?: string; errCode?: string; faults?: { errCode: string }[] };
}

const INVALID = 'service.accessDenied.invalidCredentials';
const LOCKED = 'service.accessDenied.accountLocked';

function login(password: string, email = LIVE_ADMIN_EMAIL): Promise<Answer> {
  return fetch(`${live.endpoint}/demo/v2/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': live.consoleAppKey },
    body: JSON.stringify({ email, password }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Answer['body'] }));
}

const org = () => live.svc.orgs.byCode('demo')!;
const setOrg = (patch: Partial<OrgSettings>) => live.svc.orgs.updateSettings(org(), patch);
const cred = () => live.svc.credentials.byEmail(org().id, LIVE_ADMIN_EMAIL)!;
/** An answer's errCode with its children's: what a client switches on. */
const shape = (a: Answer) => [a.body.errCode, ...(a.body.faults ?? []).map((f) => f.errCode)];

describe('right passwords sent at once', () => {
  it('all succeed, ten at once, and leave no count behind', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => login(LIVE_ADMIN_PASSWORD)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.every((a) => typeof a.body._id === 'string')).toBe(true);
    expect(cred()).toMatchObject({ failed_attempts: 0, locked_until: null });
    expect(attemptQueueOf(live.svc).size()).toBe(0);
  });

  it('all succeed with a single slot (lockAttempts 1): they wait their turn', async () => {
    setOrg({ lockAttempts: 1 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => login(LIVE_ADMIN_PASSWORD)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(cred()).toMatchObject({ failed_attempts: 0, locked_until: null });
  });

  it('mixed with fewer wrong ones than lockAttempts: every right one succeeds, nothing locks', async () => {
    const guesses = ['a', 'b', 'c', 'd'].map((s) => `wrong ${s}`);
    const rights = Array.from({ length: 6 }, () => LIVE_ADMIN_PASSWORD);
    // Interleaved, so right ones find the slots held by wrong ones and the reverse.
    const sent = rights.flatMap((p, i) => (guesses[i] ? [guesses[i], p] : [p]));
    const answers = await Promise.all(sent.map((p) => login(p)));
    sent.forEach((password, i) => {
      if (password === LIVE_ADMIN_PASSWORD) expect(answers[i]!.status).toBe(200);
      else expect(shape(answers[i]!)).toEqual([INVALID]);
    });
    expect(cred().locked_until).toBeNull();
    expect((await login(LIVE_ADMIN_PASSWORD)).status).toBe(200);
    expect(cred().failed_attempts).toBe(0);
  });
});

describe('wrong and right passwords sent at once', () => {
  it('never evaluates more than lockAttempts wrong ones, and no right one is called wrong', async () => {
    const sent = Array.from({ length: 15 }, (_, i) => (i % 3 === 2 ? LIVE_ADMIN_PASSWORD : `wrong ${i}`));
    const answers = await Promise.all(sent.map((p) => login(p)));
    const wrong = answers.filter((_, i) => sent[i] !== LIVE_ADMIN_PASSWORD);
    const right = answers.filter((_, i) => sent[i] === LIVE_ADMIN_PASSWORD);
    const evaluated = wrong.filter((a) => a.body.errCode === INVALID);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    // Every other wrong one was refused unevaluated, as locked.
    expect(wrong.filter((a) => a.body.errCode === LOCKED)).toHaveLength(wrong.length - evaluated.length);
    for (const a of right) expect(a.body._id !== undefined || a.body.errCode === LOCKED).toBe(true);
    // "Locked" is only ever said of an account that is locked.
    if (answers.some((a) => a.body.errCode === LOCKED)) expect(cred().locked_until).not.toBeNull();
  });

  it('with only wrong ones, evaluates exactly lockAttempts; the one that locks says so in a child', async () => {
    setOrg({ lockAttempts: 3 });
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => login(`nope ${i}`)));
    const shapes = answers.map(shape).map((s) => s.join(' > '));
    expect(shapes.filter((s) => s === INVALID)).toHaveLength(2);
    expect(shapes.filter((s) => s === `${INVALID} > ${LOCKED}`)).toHaveLength(1);
    expect(shapes.filter((s) => s === LOCKED)).toHaveLength(6);
    expect(cred().locked_until).not.toBeNull();
  });
});

describe('an account already locked', () => {
  it('answers top-level accountLocked (kAccountLocked, 403) to the right password, one or many at once', async () => {
    setOrg({ lockAttempts: 2 });
    expect(shape(await login('wrong one'))).toEqual([INVALID]);
    expect(shape(await login('wrong two'))).toEqual([INVALID, LOCKED]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => login(LIVE_ADMIN_PASSWORD)));
    for (const a of answers) {
      expect(a.status).toBe(403);
      expect(a.body).toMatchObject({ code: 'kAccountLocked', errCode: LOCKED });
      expect(a.body.faults).toBeUndefined();
    }
    // An unknown email locked out the same way answers the same shape (no account oracle).
    await login('x', 'nobody@example.test');
    await login('y', 'nobody@example.test');
    expect(shape(await login('z', 'nobody@example.test'))).toEqual([LOCKED]);
  });
});

describe('waiting for a slot', () => {
  /** Holds every slot of the account, as slow checks in flight would. */
  async function holdAllSlots(): Promise<CredentialAttempt[]> {
    const held: CredentialAttempt[] = [];
    for (let i = 0; i < org().settings.lockAttempts; i++) {
      held.push((await beginCredentialAttempt(live.svc, org(), cred().account_id))!);
    }
    return held;
  }

  it('ends with a timeout fault, not a hang, when no slot frees; then logins work again', async () => {
    setOrg({ lockAttempts: 2 });
    attemptQueueOf(live.svc).limits = { maxWaitMs: 300, maxWaitersPerKey: 32, maxWaiters: 1024, pollMs: 50 };
    const held = await holdAllSlots();
    const answer = await login(LIVE_ADMIN_PASSWORD);
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ code: 'kTimeout', errCode: 'service.timeout.credentialChecks' });
    for (const attempt of held) attempt.release();
    expect((await login(LIVE_ADMIN_PASSWORD)).status).toBe(200);
    expect(attemptQueueOf(live.svc).size()).toBe(0);
  });

  it('slots held by no check here (left by a process that died mid-check) count as failures: the account locks', async () => {
    setOrg({ lockAttempts: 3, lockDuration: 15 });
    for (let i = 0; i < 3; i++) live.svc.credentials.recordFailure(org().id, cred().account_id);
    const answer = await login(LIVE_ADMIN_PASSWORD);
    expect(shape(answer)).toEqual([LOCKED]);
    expect(cred().locked_until).not.toBeNull();
    // and the lock runs out like any lock-out: then the right password opens again
    live.clock.advance(16 * 60_000);
    expect((await login(LIVE_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('the same for an email with no account: locked alike, so the answer tells nothing', async () => {
    setOrg({ lockAttempts: 3, lockDuration: 15 });
    const nobody = 'nobody@example.test';
    for (let i = 0; i < 3; i++) live.svc.unknownEmails.begin(org().id, nobody, org().settings, live.clock.now());
    expect(shape(await login('any password', nobody))).toEqual([LOCKED]);
  });

  it('caps the waiters with a throttled fault; the ones admitted succeed when the slots free', async () => {
    setOrg({ lockAttempts: 2 });
    attemptQueueOf(live.svc).limits = { maxWaitMs: 10_000, maxWaitersPerKey: 2, maxWaiters: 1024, pollMs: 50 };
    const held = await holdAllSlots();
    let answered = 0;
    const pending = Array.from({ length: 4 }, () => login(LIVE_ADMIN_PASSWORD).finally(() => answered++));
    const key = `account:${org().id}:${cred().account_id}`;
    // Every request must have arrived before the slots free: two waiting, two already refused
    // (on a loaded machine a late one would otherwise find a free slot and be admitted).
    while (attemptQueueOf(live.svc).waiters(key) < 2 || answered < 2) await new Promise((r) => setTimeout(r, 10));
    for (const attempt of held) attempt.release();
    const answers = await Promise.all(pending);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const throttled = answers.filter((a) => a.status !== 200);
    expect(throttled).toHaveLength(2);
    for (const a of throttled) expect(a.body).toMatchObject({ code: 'kThrottled', status: 429 });
    expect(cred()).toMatchObject({ failed_attempts: 0, locked_until: null });
  });
});
