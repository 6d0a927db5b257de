/**
 * Issue #13 item 1: lock-out holds under concurrency. Real parallel requests against a listening
 * service: every guess is counted (under the write lock) before its slow hash, so however many
 * arrive at once, at most `lockAttempts` are evaluated per window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LIVE_ADMIN_EMAIL,
  LIVE_ADMIN_PASSWORD,
  startLiveService,
  type LiveService,
} from '../testing/compat/live-service.js';

let live: LiveService;
beforeEach(async () => {
  live = await startLiveService();
});
afterEach(async () => {
  await live.close();
});

interface Answer {
  status: number;
  body: { _id?: string; errCode?: string; faults?: { errCode: string }[] };
}

function login(password: string): Promise<Answer> {
  return fetch(`${live.endpoint}/demo/v2/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': live.consoleAppKey },
    body: JSON.stringify({ email: LIVE_ADMIN_EMAIL, password }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Answer['body'] }));
}

// An attempt on an account already locked is answered top-level accountLocked (docs/compatibility.md#requests-cookies-and-fault-codes).
const refusedUnevaluated = (a: Answer) => a.body.errCode === 'service.accessDenied.accountLocked';
const evaluatedWrong = (a: Answer) => a.body.errCode === 'service.accessDenied.invalidCredentials';

describe('lock-out under concurrency', () => {
  it('evaluates at most lockAttempts of ten wrong passwords and the right one sent at once', async () => {
    const guesses = [...Array.from({ length: 10 }, (_, i) => `wrong password ${i}`), LIVE_ADMIN_PASSWORD];
    const answers = await Promise.all(guesses.map(login));
    const wrong = answers.slice(0, 10);
    // A right password is not a guess against the account: only the wrong ones are capped.
    expect(wrong.filter(evaluatedWrong).length).toBeLessThanOrEqual(5);
    expect(wrong.filter(refusedUnevaluated).length).toBe(10 - wrong.filter(evaluatedWrong).length);
    expect(Boolean(answers.at(-1)!.body._id) || refusedUnevaluated(answers.at(-1)!)).toBe(true);
    // Unless the right password was among the evaluated ones, the account is locked now.
    if (!answers.at(-1)!.body._id) {
      const after = await login(LIVE_ADMIN_PASSWORD);
      expect(refusedUnevaluated(after)).toBe(true);
    }
  });

  it('locks after lockAttempts wrong passwords sent at once, and the right one then fails', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(`nope ${i}`)));
    expect(answers.filter((a) => !refusedUnevaluated(a))).toHaveLength(5);
    const cred = live.svc.credentials.byEmail(1, LIVE_ADMIN_EMAIL);
    expect(cred?.locked_until).not.toBeNull();
    expect(refusedUnevaluated(await login(LIVE_ADMIN_PASSWORD))).toBe(true);
  });
});
