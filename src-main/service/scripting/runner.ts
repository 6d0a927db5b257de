/**
 * The script sandbox's interface for the service.
 *
 *   const runner = new ScriptRunner({ poolSize: 2, limits: { timeoutMs: 5000 } });
 *   const result = await runner.run({
 *     source: 'return org.objects.accounts.find().limit(10).toArray()',
 *     context: { arguments, principal, env: { url }, org: { _id, code }, request },
 *     host: {
 *       driver(object, operation, options) { ... },   // sync or async; JSON-able result
 *       'tokens.create'(apiKey, subject, options) { ... },
 *       'tokens.list'(apiKey, subject) { ... },
 *       'tokens.revoke'(tokenOrJti) { ... },
 *       'tokens.revokeSubject'(apiKey, subject) { ... },
 *       as(principal, options) { ... },               // returns the effective principal or throws
 *     },
 *     limits: { ...org overrides },                    // optional, over the runner's limits
 *   });
 *   // → { ok: true, value, logs, stats } | { ok: false, fault, logs, stats }
 *   await runner.close();
 *
 * Runs happen in a pool of worker threads, never on the calling thread; a host call made by a
 * script runs HERE (the service thread), with `this` bound to a HostCallContext (run depth, the
 * `script.as` principal, and `runNested` for host functions that run another script). A host
 * function throws a FaultError to fail the call; the script sees a catchable Error carrying
 * `code`, `errCode`, `reason`. Every limit ends the run with a fault naming it (see README.md).
 *
 * The parts: run-types.ts (request, result, host-call context), worker-slot.ts (one worker and
 * its run), host-call.ts (answering a script's host call).
 */
import { makeFault } from '../../../src-shared/faults.js';
import { limitFault } from './script-faults.js';
import { mergeLimits, type ScriptLimits } from './limits.js';
import type { RunMessage, WorkerToMain } from './protocol.js';
import { EMPTY_STATS, refused, type RunRequest, type RunResult, type ScriptRunnerOptions } from './run-types.js';
import { answerHostCall } from './host-call.js';
import {
  doneResult,
  normalizeContext,
  postReply,
  roundMs,
  spawnSlot,
  type ActiveRun,
  type Slot,
  type SlotEvents,
} from './worker-slot.js';

export type { ScriptContext, ScriptFault, LogLine, ReturnedCursor } from './protocol.js';
export { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './limits.js';

interface Queued {
  request: RunRequest;
  resolve: (r: RunResult) => void;
}

const MAX_START_FAILURES = 3;

export class ScriptRunner {
  private readonly poolSize: number;
  private readonly limits: ScriptLimits;
  private readonly margin: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private nextRunId = 1;
  private closed = false;
  /** Workers that died before loading the engine, in a row: past 3 the pool stops respawning. */
  private startFailures = 0;
  /** What the runner does with its workers' events (set before the constructor spawns any). */
  private readonly events: SlotEvents = {
    started: () => {
      this.startFailures = 0;
    },
    done: (slot, m) => this.onDone(slot, m),
    hostCall: (slot, m) => void answerHostCall(slot.active, m, (r) => this.run(r)).then((r) => postReply(slot, r)),
    crashed: (slot, e) => this.onCrash(slot, e),
  };

  constructor(options: ScriptRunnerOptions = {}) {
    this.poolSize = Math.max(1, Math.floor(options.poolSize ?? 2));
    this.limits = mergeLimits(options.limits);
    this.margin = options.hardStopMarginMs ?? 1000;
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

  run(request: RunRequest): Promise<RunResult> {
    if (this.closed)
      return Promise.resolve(
        refused(makeFault('unsupportedOperation', 'script', { reason: 'The script runner is closed.' })),
      );
    const limits = mergeLimits(this.limits, request.limits);
    const depth = request.depth ?? 0;
    if (typeof request.source !== 'string') {
      return Promise.resolve(
        refused(makeFault('invalidArgument', 'script', { reason: 'The script source must be a string.' })),
      );
    }
    if (request.source.length > limits.maxScriptChars) {
      return Promise.resolve(
        refused(
          limitFault(
            'size',
            `The script has ${request.source.length} characters; the limit is ${limits.maxScriptChars}.`,
          ),
        ),
      );
    }
    if (depth > limits.maxDepth) {
      return Promise.resolve(refused(limitFault('depth', `Scripts may nest at most ${limits.maxDepth} deep.`)));
    }
    return new Promise<RunResult>((resolve) => {
      const slot = this.slots.find((s) => !s.active && !s.dead);
      if (slot) return this.dispatch(slot, request, limits, depth, resolve);
      if (depth > 0) {
        // A nested run's parent holds a worker while it waits; queueing could deadlock the pool.
        const extra = spawnSlot(true, this.events);
        this.slots.push(extra);
        return this.dispatch(extra, request, limits, depth, resolve);
      }
      if (!this.slots.some((s) => !s.dead)) {
        return resolve(refused(makeFault('error', 'script', { reason: 'The script sandbox could not start.' })));
      }
      this.queue.push({ request, resolve });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) {
      q.resolve(refused(makeFault('unsupportedOperation', 'script', { reason: 'The script runner is closed.' })));
    }
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
        await s.worker.terminate();
      }),
    );
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
    const result = doneResult(m, active.started);
    // WebAssembly memory never shrinks: a worker that hosted a memory bomb is replaced.
    const recycle = !result.ok && result.fault.errCode === 'service.tooLarge.script.memory';
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
        for (const q of this.queue.splice(0)) {
          q.resolve(refused(makeFault('error', 'script', { reason: 'The script sandbox could not start.' })));
        }
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
    slot.active = undefined;
    slot.worker?.unref();
    active.resolve(result);
    if (slot.overflow) {
      slot.dead = true;
      this.retire(slot);
      return;
    }
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.active && !s.dead && !s.overflow);
      if (!slot) return;
      const q = this.queue.shift()!;
      const limits = mergeLimits(this.limits, q.request.limits);
      this.dispatch(slot, q.request, limits, q.request.depth ?? 0, q.resolve);
    }
  }
}
