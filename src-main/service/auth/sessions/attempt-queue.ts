import { fault } from '../../../../src-shared/faults.js';

/**
 * What the shared check of one account's (or unknown email's) guesses found: a slot was reserved,
 * the account is locked, or every slot is held (by guesses still being evaluated).
 */
export type Admission = 'admitted' | 'locked' | 'full';

export interface AttemptQueueLimits {
  /** Longest wait for a slot, in elapsed milliseconds. */
  maxWaitMs: number;
  /** Waiting attempts per account or unknown email. */
  maxWaitersPerKey: number;
  /** Waiting attempts over every account and email together. */
  maxWaiters: number;
  /**
   * How often a waiter looks again without being woken: a slot freed by another process on the
   * data folder wakes no one here.
   */
  pollMs: number;
}

/*
 * A few hashes take well under a second; ten seconds is slack for a loaded machine, not a
 * throughput target. The waiter caps bound the memory a burst can pin (a closure and a timer each).
 */
export const DEFAULT_ATTEMPT_QUEUE_LIMITS: Readonly<AttemptQueueLimits> = {
  maxWaitMs: 10_000,
  maxWaitersPerKey: 32,
  maxWaiters: 1024,
  pollMs: 100,
};

interface KeyState {
  /** This process's attempts on the key that hold a slot now. */
  inFlight: number;
  /** Wake-ups of the attempts waiting for a slot, oldest first. */
  waiters: { wake: () => void }[];
}

/**
 * Per-process admission to the lock-out's slots (docs/sessions.md). The slots themselves are counted in
 * the database, so other processes respect them; this only decides what an attempt that finds them
 * all held does: it waits — bounded in time and in number — instead of being answered "locked" while
 * the account is not (a correct password must never be refused as locked).
 */
export class AttemptQueue {
  private readonly keys = new Map<string, KeyState>();
  private waiting = 0;

  constructor(public limits: AttemptQueueLimits = { ...DEFAULT_ATTEMPT_QUEUE_LIMITS }) {}

  /** Attempts on the key that this process admitted and that have not ended yet. */
  inFlight(key: string): number {
    return this.keys.get(key)?.inFlight ?? 0;
  }

  /** Attempts waiting for a slot on the key. */
  waiters(key: string): number {
    return this.keys.get(key)?.waiters.length ?? 0;
  }

  /** Keys with attempts in flight or waiting (what the queue holds in memory). */
  size(): number {
    return this.keys.size;
  }

  /**
   * Admits an attempt or says the key is locked. `tryBegin` runs the shared check and, when it
   * answers 'admitted', has reserved a slot; the caller must then call `end` exactly once. Throws a
   * throttled fault when too many attempts already wait, a timeout fault when no slot freed in time.
   */
  async admit(key: string, tryBegin: () => Admission): Promise<'admitted' | 'locked'> {
    const state = this.stateOf(key);
    // Waiters go first: a newcomer taking a freed slot could starve them until their timeout.
    if (state.waiters.length === 0) {
      const outcome = this.tryOnce(key, state, tryBegin);
      if (outcome !== 'full') return this.settle(key, outcome);
    }
    if (state.waiters.length >= this.limits.maxWaitersPerKey || this.waiting >= this.limits.maxWaiters) {
      this.forgetIfIdle(key);
      throw fault('throttled', 'credentialChecks', {
        reason: 'Too many sign-in attempts for this account are being checked at once; try again in a moment.',
      });
    }
    const waiter = { wake: () => {} };
    state.waiters.push(waiter);
    this.waiting++;
    try {
      // Elapsed time, not the service clock: a test's clock stands still, and a wait must still end.
      const deadline = performance.now() + this.limits.maxWaitMs;
      for (;;) {
        const left = deadline - performance.now();
        if (left <= 0) {
          throw fault('timeout', 'credentialChecks', {
            reason: 'Other sign-in attempts for this account were still being checked; try again.',
          });
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(this.limits.pollMs, left));
          waiter.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        const outcome = this.tryOnce(key, state, tryBegin);
        if (outcome !== 'full') return outcome;
      }
    } finally {
      state.waiters.splice(state.waiters.indexOf(waiter), 1);
      this.waiting--;
      this.forgetIfIdle(key);
    }
  }

  /** An admitted attempt ended (however): its slot is free, so every waiter looks again. */
  end(key: string): void {
    const state = this.keys.get(key);
    if (!state) return;
    state.inFlight = Math.max(0, state.inFlight - 1);
    // Woken in arrival order, so the oldest waiter checks first and takes the freed slot.
    for (const waiter of [...state.waiters]) waiter.wake();
    this.forgetIfIdle(key);
  }

  private tryOnce(key: string, state: KeyState, tryBegin: () => Admission): Admission {
    let outcome: Admission;
    try {
      outcome = tryBegin();
    } catch (error) {
      // A failed check (the database, say) must not leave an empty entry behind for the key.
      this.forgetIfIdle(key);
      throw error;
    }
    if (outcome === 'admitted') state.inFlight++;
    return outcome;
  }

  private settle(key: string, outcome: 'admitted' | 'locked'): 'admitted' | 'locked' {
    this.forgetIfIdle(key);
    return outcome;
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { inFlight: 0, waiters: [] };
      this.keys.set(key, state);
    }
    return state;
  }

  private forgetIfIdle(key: string): void {
    const state = this.keys.get(key);
    if (state && state.inFlight === 0 && state.waiters.length === 0) this.keys.delete(key);
  }
}

/**
 * One queue per service instance; the Service itself stays unaware of it. Keyed by any object, so
 * this module needs no import of the service (which imports the lock-out repositories that use
 * `Admission` from here).
 */
const queues = new WeakMap<object, AttemptQueue>();

export function attemptQueueOf(svc: object): AttemptQueue {
  let queue = queues.get(svc);
  if (!queue) {
    queue = new AttemptQueue();
    queues.set(svc, queue);
  }
  return queue;
}
