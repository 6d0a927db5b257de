import { describe, expect, it } from 'vitest';
import { FaultError } from '../../../../src-shared/faults.js';
import { AttemptQueue, type Admission } from './attempt-queue.js';

/** Slots counted the way the database does it: `held` reserved of `slots`, or locked. */
function slots(count: number) {
  const state = { held: 0, locked: false };
  const tryBegin = (): Admission => {
    if (state.locked) return 'locked';
    if (state.held >= count) return 'full';
    state.held++;
    return 'admitted';
  };
  return { state, tryBegin };
}

const errCodeOf = (e: unknown) => (e instanceof FaultError ? e.fault.errCode : String(e));
const limits = { maxWaitMs: 2_000, maxWaitersPerKey: 4, maxWaiters: 10, pollMs: 1_000 };

describe('the attempt queue', () => {
  it('admits while slots are free and makes the rest wait for a freed slot, oldest first', async () => {
    const queue = new AttemptQueue({ ...limits });
    const { state, tryBegin } = slots(2);
    expect(await queue.admit('k', tryBegin)).toBe('admitted');
    expect(await queue.admit('k', tryBegin)).toBe('admitted');
    const order: string[] = [];
    const first = queue.admit('k', tryBegin).then((o) => order.push(`first ${o}`));
    const second = queue.admit('k', tryBegin).then((o) => order.push(`second ${o}`));
    await new Promise((r) => setTimeout(r, 20));
    expect(queue.waiters('k')).toBe(2);
    expect(order).toEqual([]);

    state.held--;
    queue.end('k');
    await first;
    expect(order).toEqual(['first admitted']);
    expect(queue.waiters('k')).toBe(1);

    state.held--;
    queue.end('k');
    await second;
    expect(order).toEqual(['first admitted', 'second admitted']);
    expect(queue.inFlight('k')).toBe(2);
  });

  it('answers every waiter "locked" once the key locks', async () => {
    const queue = new AttemptQueue({ ...limits });
    const { state, tryBegin } = slots(1);
    await queue.admit('k', tryBegin);
    const waiting = Promise.all([queue.admit('k', tryBegin), queue.admit('k', tryBegin)]);
    await new Promise((r) => setTimeout(r, 20));
    state.locked = true;
    queue.end('k');
    expect(await waiting).toEqual(['locked', 'locked']);
    // Nothing is left in memory for the key.
    expect(queue.size()).toBe(0);
  });

  it('ends a wait that no freed slot answers with a timeout fault, and forgets the waiter', async () => {
    const queue = new AttemptQueue({ ...limits, maxWaitMs: 150, pollMs: 40 });
    const { tryBegin } = slots(1);
    await queue.admit('k', tryBegin);
    const started = performance.now();
    const error = await queue.admit('k', tryBegin).catch((e: unknown) => e);
    expect(errCodeOf(error)).toBe('service.timeout.credentialChecks');
    expect((error as FaultError).fault.status).toBe(504);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(queue.waiters('k')).toBe(0);
    expect(queue.inFlight('k')).toBe(1);
  });

  it('looks again on its own, for a slot freed where no end() is called (another process)', async () => {
    const queue = new AttemptQueue({ ...limits, pollMs: 20 });
    const { state, tryBegin } = slots(1);
    await queue.admit('k', tryBegin);
    const waiting = queue.admit('k', tryBegin);
    state.held = 0; // freed without telling this queue
    expect(await waiting).toBe('admitted');
  });

  it('bounds the waiters per key and overall with a throttled fault', async () => {
    const queue = new AttemptQueue({ ...limits, maxWaitersPerKey: 2, maxWaiters: 3 });
    const a = slots(1);
    const b = slots(1);
    await queue.admit('a', a.tryBegin);
    await queue.admit('b', b.tryBegin);
    const waitingA = [queue.admit('a', a.tryBegin), queue.admit('a', a.tryBegin)];
    const overPerKey = await queue.admit('a', a.tryBegin).catch((e: unknown) => e);
    expect(errCodeOf(overPerKey)).toBe('service.throttled.credentialChecks');
    expect((overPerKey as FaultError).fault.status).toBe(429);
    const waitingB = queue.admit('b', b.tryBegin);
    const overAll = await queue.admit('b', b.tryBegin).catch((e: unknown) => e);
    expect(errCodeOf(overAll)).toBe('service.throttled.credentialChecks');

    a.state.locked = true;
    b.state.locked = true;
    queue.end('a');
    queue.end('b');
    expect(await Promise.all([...waitingA, waitingB])).toEqual(['locked', 'locked', 'locked']);
    expect(queue.size()).toBe(0);
  });

  it('lets a newcomer wait behind earlier waiters instead of taking their freed slot', async () => {
    const queue = new AttemptQueue({ ...limits });
    const { state, tryBegin } = slots(1);
    await queue.admit('k', tryBegin);
    const early = queue.admit('k', tryBegin);
    await new Promise((r) => setTimeout(r, 20));
    state.held = 0; // free, but the early waiter has not looked yet
    const late = queue.admit('k', tryBegin);
    expect(queue.waiters('k')).toBe(2);
    queue.end('k');
    expect(await early).toBe('admitted');
    state.held = 0;
    queue.end('k');
    expect(await late).toBe('admitted');
  });
});

describe('the attempt queue after a failed check', () => {
  it('keeps nothing for the key when the check itself throws', async () => {
    const queue = new AttemptQueue({ ...limits });
    const broken = (): Admission => {
      throw new Error('database gone');
    };
    await expect(queue.admit('k', broken)).rejects.toThrow('database gone');
    expect(queue.size()).toBe(0);
  });
});
