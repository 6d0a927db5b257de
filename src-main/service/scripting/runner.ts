/**
 * The script sandbox's interface for the service: `new ScriptRunner(options).run(request)` answers
 * `{ ok: true, value, logs, stats } | { ok: false, fault, logs, stats }` (README.md shows a whole
 * call). Runs happen in a pool of worker threads, never on the calling thread; a host call made by
 * a script runs HERE (the service thread), with `this` bound to a HostCallContext (run depth, the
 * `script.as` principal, and `runNested` for host functions that run another script). A host
 * function throws a FaultError to fail the call. Every limit ends the run with a fault naming it.
 *
 * The parts: run-types.ts (request, result, host-call context), worker-slot.ts (one worker and
 * its run), host-call.ts (answering a script's host call), run-queue.ts (who waits, who goes next:
 * fair between orgs and callers, bounded), engine-memory.ts (each run's share of engine memory).
 */
import { AsyncResource } from 'node:async_hooks';
import { makeFault } from '../../../src-shared/faults.js';
import { limitFault } from './script-faults.js';
import { mergeLimits, type ScriptLimits } from './limits.js';
import type { RunMessage, WorkerToMain } from './protocol.js';
import {
  EMPTY_STATS,
  refused,
  refusal,
  type RunActivity,
  type RunRequest,
  type RunResult,
  type ScriptRunnerOptions,
} from './run-types.js';
import { answerHostCall } from './host-call.js';
import { DEFAULT_QUEUE_LIMITS, FairQueue, throttledFault, type QueueKeys, type Waiting } from './run-queue.js';
import {
  doneResult,
  normalizeContext,
  postReply,
  roundMs,
  spawnSlot,
  longestFree,
  markFree,
  type ActiveRun,
  type Slot,
  type SlotEvents,
} from './worker-slot.js';

export type { ScriptContext, ScriptFault, LogLine, ReturnedCursor } from './protocol.js';
export { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './limits.js';

interface Queued {
  request: RunRequest;
  limits: ScriptLimits;
  resolve: (r: RunResult) => void;
}

const MAX_START_FAILURES = 3;
/** Runs without queue keys (tests, benchmarks) share one org and one caller. */
const SHARED_KEYS: QueueKeys = { org: '', caller: '' };
const DEFAULT_RECYCLE_ABOVE_BYTES = 48 * 1024 * 1024;
const closedFault = () => makeFault('unsupportedOperation', 'script', { reason: 'The script runner is closed.' });
const cannotStart = () => makeFault('error', 'script', { reason: 'The script sandbox could not start.' });

export class ScriptRunner {
  private readonly poolSize: number;
  private readonly limits: ScriptLimits;
  private readonly margin: number;
  private readonly recycleAbove: number;
  private readonly clock: { now(): number };
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Queued>;
  private readonly maxBusyPerOrg: number;
  private waitTimer?: NodeJS.Timeout;
  private nextRunId = 1;
  private closed = false;
  /** Each run's async context where it was asked for: its host calls are answered in it. */
  private readonly scopes = new WeakMap<RunRequest, AsyncResource>();
  /** Workers that died before loading the engine, in a row: past 3 the pool stops respawning. */
  private startFailures = 0;
  /** What the runner does with its workers' events (set before the constructor spawns any). */
  private readonly events: SlotEvents = {
    started: () => {
      this.startFailures = 0;
    },
    done: (slot, m) => this.onDone(slot, m),
    hostCall: (slot, m) => {
      // A run a host call starts is its parent's org's and caller's.
      const parent = slot.active;
      const nested = (r: RunRequest) => this.run({ ...r, queue: r.queue ?? parent?.request.queue });
      const answer = () => answerHostCall(parent, m, nested);
      const scope = parent && this.scopes.get(parent.request);
      void (scope ? scope.runInAsyncScope(answer) : answer()).then((r) => postReply(slot, r));
    },
    crashed: (slot, e) => this.onCrash(slot, e),
  };

  constructor(options: ScriptRunnerOptions = {}) {
    this.poolSize = Math.max(1, Math.floor(options.poolSize ?? 2));
    this.limits = mergeLimits(options.limits);
    this.margin = options.hardStopMarginMs ?? 1000;
    this.recycleAbove = options.recycleAboveBytes ?? DEFAULT_RECYCLE_ABOVE_BYTES;
    this.clock = options.clock ?? { now: () => performance.now() };
    const limits = { maxBusyPerOrg: this.poolSize, ...DEFAULT_QUEUE_LIMITS, ...options.queue };
    this.maxBusyPerOrg = limits.maxBusyPerOrg;
    this.queue = new FairQueue<Queued>(limits, () => this.clock.now());
    for (let i = 0; i < this.poolSize; i++) this.slots.push(spawnSlot(false, this.events));
  }

  /** Resolves when every pool worker has loaded the engine (optional; runs wait anyway). */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Number of live worker threads (pool plus borrowed). */
  get workerCount(): number {
    return this.slots.filter((s) => !s.dead).length;
  }

  /** Runs waiting for a worker. */
  get waiting(): number {
    return this.queue.size;
  }

  /** Engine memory of each live worker, bytes, as last reported (what the process holds for scripts). */
  engineMemory(): number[] {
    return this.slots.filter((s) => !s.dead).map((s) => s.engineBytes);
  }

  /**
   * What the pool is doing for `org` (the original's `api.currentActivity`): that org's runs on
   * workers now, and every live worker as busy or not (another org's run is counted, not described).
   */
  activity(org: string): RunActivity {
    const live = this.slots.filter((s) => !s.dead);
    const mine = live.flatMap((s) => (s.active && s.active.org === org ? [s.active] : []));
    const now = performance.now();
    return {
      runs: mine.map((a) => ({ runId: a.runId, depth: a.depth, ms: Math.round(now - a.started), request: a.request })),
      workers: live.map((s) => ({ busy: s.active !== undefined, borrowed: s.overflow })),
    };
  }

  run(request: RunRequest): Promise<RunResult> {
    if (this.closed) return Promise.resolve(refused(closedFault()));
    const limits = mergeLimits(this.limits, request.limits);
    const depth = request.depth ?? 0;
    const invalid = refusal(request, limits, depth);
    if (invalid) return Promise.resolve(refused(invalid));
    this.scopes.set(request, new AsyncResource('ScriptRun'));
    return new Promise<RunResult>((resolve) => {
      if (depth > 0) {
        // A nested run's parent holds a worker while it waits; queueing could deadlock the pool.
        // It takes a free pool worker only within its org's share (else other orgs' would be taken).
        const withinShare = this.busy((request.queue ?? SHARED_KEYS).org) < this.maxBusyPerOrg;
        const free = withinShare ? longestFree(this.slots) : undefined;
        return this.dispatch(free ?? this.borrow(), request, limits, depth, resolve);
      }
      if (!this.slots.some((s) => !s.dead)) return resolve(refused(cannotStart()));
      const full = this.queue.add({ request, limits, resolve }, request.queue ?? SHARED_KEYS);
      if (full) return resolve(refused(full));
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.waitTimer);
    for (const q of this.queue.drain()) q.item.resolve(refused(closedFault()));
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (s) => {
        s.dead = true;
        s.retired = true;
        if (s.active)
          this.finish(
            s,
            refused(
              makeFault('unsupportedOperation', 'script', { reason: 'The script runner closed during the run.' }),
            ),
          );
        s.hostPort.close();
        await s.worker?.terminate();
      }),
    );
  }

  /** An extra worker for one nested run, terminated when the run ends. */
  private borrow(): Slot {
    const extra = spawnSlot(true, this.events);
    this.slots.push(extra);
    return extra;
  }

  private dispatch(
    slot: Slot,
    request: RunRequest,
    limits: ScriptLimits,
    depth: number,
    resolve: (r: RunResult) => void,
  ): void {
    const runId = this.nextRunId++;
    const active: ActiveRun = {
      runId,
      request,
      limits,
      depth,
      org: (request.queue ?? SHARED_KEYS).org,
      started: performance.now(),
      resolve,
      timer: setTimeout(() => this.hardStop(slot, runId), limits.timeoutMs + this.margin),
    };
    slot.active = active;
    const context = normalizeContext(request.context);
    void slot.ready.then(
      () => {
        if (slot.active !== active || slot.dead) return;
        // The budget starts when the worker can take the run, not while it is still loading.
        active.started = performance.now();
        active.timer.refresh();
        slot.worker.ref();
        const msg: RunMessage = {
          type: 'run',
          runId,
          source: request.source,
          context,
          limits,
          debugBlockMs: request.debugBlockMs,
        };
        slot.worker.postMessage(msg);
      },
      (e: unknown) => {
        if (slot.active === active)
          this.finish(
            slot,
            refused(
              makeFault('error', 'script', { reason: `Sandbox worker failed to start: ${(e as Error).message}` }),
            ),
          );
      },
    );
  }

  private onDone(slot: Slot, m: Extract<WorkerToMain, { type: 'done' }>): void {
    const active = slot.active;
    if (!active || active.runId !== m.runId) return;
    slot.engineBytes = m.engineBytes;
    const result = doneResult(m, active.started);
    // WebAssembly memory never shrinks: a worker whose engine memory grew past the bound (a memory
    // bomb, or any run that needed that much) is replaced, so idle workers hold little.
    const memoryFault = !result.ok && result.fault.errCode === 'service.tooLarge.script.memory';
    const recycle = memoryFault || m.engineBytes > this.recycleAbove;
    if (recycle) slot.dead = true;
    this.finish(slot, result);
    if (recycle) this.retire(slot);
  }

  private hardStop(slot: Slot, runId: number): void {
    const active = slot.active;
    if (!active || active.runId !== runId) return;
    const fault = limitFault(
      'timeout',
      `The script did not stop within ${active.limits.timeoutMs} ms; its sandbox was terminated.`,
    );
    slot.dead = true;
    this.finish(slot, {
      ok: false,
      fault,
      logs: [],
      stats: { ...EMPTY_STATS(), elapsedMs: roundMs(performance.now() - active.started) },
    });
    this.retire(slot);
  }

  private onCrash(slot: Slot, e: Error): void {
    if (slot.retired) return;
    slot.dead = true;
    if (slot.active) {
      this.finish(slot, refused(makeFault('error', 'script', { reason: `The sandbox worker stopped: ${e.message}` })));
    }
    this.retire(slot);
  }

  /** Terminates a slot's worker and, for a pool slot, puts a fresh one in its place. */
  private retire(slot: Slot): void {
    if (slot.retired) return;
    slot.retired = true;
    slot.dead = true;
    slot.hostPort.close();
    void slot.ready.finally(() => slot.worker?.terminate());
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (!slot.started) this.startFailures += 1;
    if (this.startFailures >= MAX_START_FAILURES) {
      // A worker that cannot start will not start on the next try either: fail waiting runs
      // rather than respawn in a loop.
      if (!this.slots.some((s) => !s.dead)) {
        for (const q of this.queue.drain()) q.item.resolve(refused(cannotStart()));
      }
      return;
    }
    if (!slot.overflow && !this.closed) {
      const fresh = spawnSlot(false, this.events);
      this.slots.push(fresh);
      this.pump();
    }
  }

  private finish(slot: Slot, result: RunResult): void {
    const active = slot.active;
    if (!active) return;
    clearTimeout(active.timer);
    markFree(slot);
    slot.worker?.unref();
    active.resolve(result);
    if (slot.overflow) {
      slot.dead = true;
      this.retire(slot);
      return;
    }
    this.pump();
  }

  /** Runs of `org` in pool workers now (nested ones too; borrowed workers are not the pool's). */
  private busy(org: string): number {
    return this.slots.filter((s) => s.active && !s.overflow && s.active.org === org).length;
  }

  /** Answers runs that waited too long, then gives free workers to the runs whose turn it is. */
  private pump(): void {
    for (const late of this.queue.expire()) this.answerLate(late);
    for (;;) {
      const slot = longestFree(this.slots);
      if (!slot) break;
      const next = this.queue.take((org) => this.busy(org));
      if (!next) break;
      const { request, limits, resolve } = next.item;
      this.dispatch(slot, request, limits, 0, resolve);
    }
    this.armWaitTimer();
  }

  private answerLate(late: Waiting<Queued>): void {
    late.item.resolve(
      refused(throttledFault('No script worker was free in time; the run was not started. Try again shortly.')),
    );
  }

  /** Wakes the pump when the longest wait runs out, even if no run ends before. */
  private armWaitTimer(): void {
    clearTimeout(this.waitTimer);
    const deadline = this.queue.nextDeadline();
    if (deadline === undefined || this.closed) return;
    this.waitTimer = setTimeout(() => this.pump(), Math.max(1, deadline - this.clock.now()));
    this.waitTimer.unref();
  }
}
