/**
 * Who waits for a sandbox worker, and who goes next (issue 38, Medium 2). One shared first-come
 * queue let one org, or anonymous callers of one route, make every other org wait behind them; here
 * each org has its own queue, and each caller (an account, or an anonymous caller's address) its
 * own queue inside its org's:
 *   - the next run goes to the org with the fewest runs in workers, ties taken in turn (round robin),
 *     and inside that org to its callers in turn; an org at `maxBusyPerOrg` waits while others go;
 *   - waiting is bounded per caller, per org and in all, and in time: past any bound the run is
 *     answered `service.throttled.script` (429) instead of queueing without end.
 * Pure bookkeeping: no timers and no workers (runner.ts drives it), time from the injected clock.
 */
import { makeFault, type FaultBody } from '../../../src-shared/faults.js';

/** Whose run it is: the org, and the caller inside it (an account id, or `ip:<address>` when anonymous). */
export interface QueueKeys {
  org: string;
  caller: string;
}

export interface QueueLimits {
  /** Runs of one org in workers at once while its other runs wait (others' runs go first). */
  maxBusyPerOrg: number;
  /** Runs waiting per caller. */
  maxQueuedPerCaller: number;
  /** Runs waiting per org. */
  maxQueuedPerOrg: number;
  /** Runs waiting in all. */
  maxQueued: number;
  /** Longest wait for a worker, ms of the injected clock. */
  maxWaitMs: number;
}

export const DEFAULT_QUEUE_LIMITS: Readonly<Omit<QueueLimits, 'maxBusyPerOrg'>> = Object.freeze({
  maxQueuedPerCaller: 8,
  maxQueuedPerOrg: 32,
  maxQueued: 256,
  maxWaitMs: 10_000,
});

export interface Waiting<T> {
  item: T;
  keys: QueueKeys;
  /** When it was queued (clock ms). */
  since: number;
}

/** A caller's or an org's queue: insertion order of the map is the turn order. */
type Callers<T> = Map<string, Waiting<T>[]>;

export const throttledFault = (reason: string): FaultBody => makeFault('throttled', 'script', { reason });

export class FairQueue<T> {
  private readonly orgs = new Map<string, Callers<T>>();
  private count = 0;

  constructor(
    private readonly limits: QueueLimits,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Queues `item`, or answers the throttled fault naming the bound it would pass. */
  add(item: T, keys: QueueKeys): FaultBody | undefined {
    const callers = this.orgs.get(keys.org);
    const queued = callers?.get(keys.caller)?.length ?? 0;
    const orgQueued = callers ? [...callers.values()].reduce((n, q) => n + q.length, 0) : 0;
    if (queued >= this.limits.maxQueuedPerCaller) {
      return throttledFault(
        `You already have ${queued} scripts waiting to run (the limit is ${this.limits.maxQueuedPerCaller}); try again shortly.`,
      );
    }
    if (orgQueued >= this.limits.maxQueuedPerOrg) {
      return throttledFault(
        `This org already has ${orgQueued} scripts waiting to run (the limit is ${this.limits.maxQueuedPerOrg}); try again shortly.`,
      );
    }
    if (this.count >= this.limits.maxQueued) {
      return throttledFault('Too many scripts are waiting to run; try again shortly.');
    }
    const org = callers ?? new Map<string, Waiting<T>[]>();
    if (!callers) this.orgs.set(keys.org, org);
    const queue = org.get(keys.caller) ?? [];
    if (queue.length === 0) org.set(keys.caller, queue);
    queue.push({ item, keys, since: this.now() });
    this.count += 1;
    return undefined;
  }

  /**
   * Removes and answers the run that goes next: of the orgs below `maxBusyPerOrg` runs in workers,
   * the one with the fewest, earliest in turn; inside it, the caller earliest in turn. Both then
   * go to the back of their turn order. Undefined when every waiting org is at its bound.
   */
  take(busy: (org: string) => number): Waiting<T> | undefined {
    let chosen: string | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const org of this.orgs.keys()) {
      const running = busy(org);
      if (running < this.limits.maxBusyPerOrg && running < fewest) {
        chosen = org;
        fewest = running;
      }
    }
    if (chosen === undefined) return undefined;
    const callers = this.orgs.get(chosen)!;
    const [caller, queue] = callers.entries().next().value as [string, Waiting<T>[]];
    const next = queue.shift()!;
    this.count -= 1;
    // To the back of the turn order (or out, when empty).
    callers.delete(caller);
    if (queue.length > 0) callers.set(caller, queue);
    this.orgs.delete(chosen);
    if (callers.size > 0) this.orgs.set(chosen, callers);
    return next;
  }

  /** Removes and answers the runs that have waited `maxWaitMs` or longer. */
  expire(): Waiting<T>[] {
    const limit = this.now() - this.limits.maxWaitMs;
    const out: Waiting<T>[] = [];
    for (const [org, callers] of this.orgs) {
      for (const [caller, queue] of callers) {
        while (queue.length > 0 && queue[0]!.since <= limit) out.push(queue.shift()!);
        if (queue.length === 0) callers.delete(caller);
      }
      if (callers.size === 0) this.orgs.delete(org);
    }
    this.count -= out.length;
    return out;
  }

  /** Clock time at which the longest-waiting run passes `maxWaitMs`; undefined when none waits. */
  nextDeadline(): number | undefined {
    let oldest: number | undefined;
    for (const callers of this.orgs.values()) {
      for (const queue of callers.values()) {
        const since = queue[0]?.since;
        if (since !== undefined && (oldest === undefined || since < oldest)) oldest = since;
      }
    }
    return oldest === undefined ? undefined : oldest + this.limits.maxWaitMs;
  }

  /** Removes and answers every waiting run (the runner is closing, or cannot start workers). */
  drain(): Waiting<T>[] {
    const out: Waiting<T>[] = [];
    for (const callers of this.orgs.values()) for (const queue of callers.values()) out.push(...queue);
    this.orgs.clear();
    this.count = 0;
    return out;
  }
}
