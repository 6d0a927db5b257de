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
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { FaultError, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { limitFault } from './engine.js';
import { mergeLimits, type ScriptLimits } from './limits.js';
import type {
  HostCallMessage,
  HostReplyMessage,
  LogLine,
  ReturnedCursor,
  RunMessage,
  ScriptContext,
  ScriptFault,
  WorkerInit,
  WorkerToMain,
} from './protocol.js';
import { readReturnedCursor } from './protocol.js';
import { resolveWorkerUrl } from './worker-path.js';

export type { ScriptContext, ScriptFault, LogLine, ReturnedCursor } from './protocol.js';
export { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './limits.js';

export interface HostCallContext {
  /** Nesting depth of the run making the call (0 for a top-level run). */
  depth: number;
  /** The principal set by `script.as` around this call, or undefined outside `script.as`. */
  asPrincipal: unknown;
  /** The context the run was started with. */
  context: ScriptContext;
  /** Runs another script one level deeper (refused beyond maxDepth). */
  runNested(request: Omit<RunRequest, 'depth'>): Promise<RunResult>;
}

export type HostFunction = (this: HostCallContext, ...args: unknown[]) => unknown;
export type HostFunctions = Record<string, HostFunction>;

export interface RunRequest {
  source: string;
  context?: ScriptContext;
  host?: HostFunctions;
  limits?: Partial<ScriptLimits>;
  /** Set by HostCallContext.runNested; a top-level run is depth 0. */
  depth?: number;
  /** Test hook: the worker stalls uninterruptibly this long first (exercises the hard stop). */
  debugBlockMs?: number;
}

export interface RunStats {
  elapsedMs: number;
  cpuMs: number;
  operations: number;
  memoryPeakBytes: number;
  bytesIn: number;
  bytesOut: number;
  callouts: number;
}

export type RunResult =
  | {
      ok: true;
      /** For a returned cursor: the records it had fetched and not handed out. */
      value: unknown;
      /** Set when the script returned a cursor: the caller answers it (streams the rest). */
      cursor?: ReturnedCursor;
      logs: LogLine[];
      stats: RunStats;
    }
  | { ok: false; fault: ScriptFault; logs: LogLine[]; stats: RunStats };

export interface ScriptRunnerOptions {
  /** Worker threads kept ready (default 2). Nested runs borrow extra workers when all are busy. */
  poolSize?: number;
  limits?: Partial<ScriptLimits>;
  /** How long past its time limit a silent worker is given before it is terminated (default 1000 ms). */
  hardStopMarginMs?: number;
}

interface ActiveRun {
  runId: number;
  request: RunRequest;
  limits: ScriptLimits;
  depth: number;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (r: RunResult) => void;
}

interface Slot {
  worker: Worker;
  hostPort: MessagePort;
  signal: Int32Array;
  ready: Promise<void>;
  active?: ActiveRun;
  /** Borrowed for a nested run while the pool was busy; terminated when its run ends. */
  overflow: boolean;
  /** No new runs go here (set before the slot's last run is resolved). */
  dead: boolean;
  /** Its worker has been terminated. */
  retired: boolean;
  /** Its worker loaded the engine. */
  started: boolean;
}

interface Queued {
  request: RunRequest;
  resolve: (r: RunResult) => void;
}

const MAX_START_FAILURES = 3;

const EMPTY_STATS = (): RunStats => ({
  elapsedMs: 0,
  cpuMs: 0,
  operations: 0,
  memoryPeakBytes: 0,
  bytesIn: 0,
  bytesOut: 0,
  callouts: 0,
});

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

  constructor(options: ScriptRunnerOptions = {}) {
    this.poolSize = Math.max(1, Math.floor(options.poolSize ?? 2));
    this.limits = mergeLimits(options.limits);
    this.margin = options.hardStopMarginMs ?? 1000;
    for (let i = 0; i < this.poolSize; i++) this.slots.push(this.spawn(false));
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
        const extra = this.spawn(true);
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

  private spawn(overflow: boolean): Slot {
    const { port1, port2 } = new MessageChannel();
    const sab = new SharedArrayBuffer(4);
    const signal = new Int32Array(sab);
    const slot = { hostPort: port1, signal, overflow, dead: false, retired: false, started: false } as Slot;
    const urlPromise = resolveWorkerUrl();
    slot.ready = urlPromise.then(
      (url) =>
        new Promise<void>((resolveReady, rejectReady) => {
          if (slot.retired) return resolveReady();
          const init: WorkerInit = { hostPort: port2, signal: sab };
          const worker = new Worker(url, { workerData: init, transferList: [port2] });
          slot.worker = worker;
          // Idle workers do not keep the process alive; a running one does (see dispatch/finish).
          worker.unref();
          worker.on('message', (m: WorkerToMain) => {
            if (m.type === 'ready') {
              slot.started = true;
              this.startFailures = 0;
              return resolveReady();
            }
            if (m.type === 'done') this.onDone(slot, m);
          });
          worker.on('error', (e) => {
            rejectReady(e);
            this.onCrash(slot, e);
          });
          worker.on('exit', () => this.onCrash(slot, new Error('worker exited')));
        }),
    );
    slot.ready.catch(() => undefined);
    port1.on('message', (m: HostCallMessage) => void this.onHostCall(slot, m));
    port1.unref();
    return slot;
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
    const stats: RunStats = { ...m.stats, elapsedMs: round(performance.now() - active.started), callouts: 0 };
    const value = m.ok && m.valueJson !== undefined ? (JSON.parse(m.valueJson) as unknown) : null;
    const cursor = m.ok && m.cursor ? readReturnedCursor(value) : undefined;
    const result: RunResult = m.ok
      ? cursor
        ? { ok: true, value: cursor.buffered, cursor, logs: m.logs, stats }
        : { ok: true, value, logs: m.logs, stats }
      : { ok: false, fault: m.fault ?? makeFault('error', 'script'), logs: m.logs, stats };
    // WebAssembly memory never shrinks: a worker that hosted a memory bomb is replaced.
    const recycle = !result.ok && result.fault.errCode === 'service.tooLarge.script.memory';
    if (recycle) slot.dead = true;
    this.finish(slot, result);
    if (recycle) this.retire(slot);
  }

  private async onHostCall(slot: Slot, m: HostCallMessage): Promise<void> {
    const active = slot.active;
    let reply: HostReplyMessage;
    try {
      if (!active || active.runId !== m.runId)
        throw new FaultError(makeFault('error', 'script', { reason: 'No run is active.' }));
      const fn = active.request.host?.[m.name];
      if (typeof fn !== 'function' || !Object.prototype.hasOwnProperty.call(active.request.host, m.name)) {
        throw new FaultError(
          makeFault('notImplemented', 'script.host', { reason: `${m.name} is not available to scripts here.` }),
        );
      }
      const args = JSON.parse(m.argsJson) as unknown[];
      const ctx: HostCallContext = {
        depth: active.depth,
        asPrincipal: m.asJson === null ? undefined : (JSON.parse(m.asJson) as unknown),
        context: active.request.context ?? {},
        runNested: (req) => this.run({ ...req, depth: active.depth + 1 }),
      };
      const value = await fn.apply(ctx, args);
      const valueJson = JSON.stringify(value === undefined ? null : value) ?? 'null';
      reply = { type: 'reply', seq: m.seq, ok: true, valueJson };
    } catch (e) {
      reply = { type: 'reply', seq: m.seq, ok: false, fault: toFault(e) };
    }
    // The run may have ended (timeout) while the host worked: the worker skips stale replies.
    if (slot.retired) return;
    slot.hostPort.postMessage(reply);
    Atomics.store(slot.signal, 0, 1);
    Atomics.notify(slot.signal, 0);
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
      stats: { ...EMPTY_STATS(), elapsedMs: round(performance.now() - active.started) },
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
      const fresh = this.spawn(false);
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

function refused(fault: FaultBody): RunResult {
  return { ok: false, fault, logs: [], stats: EMPTY_STATS() };
}

function toFault(e: unknown): FaultBody {
  if (e instanceof FaultError) return e.fault;
  // Internal errors of host functions are not shown to scripts (they may name files or SQL).
  return makeFault('error', 'script.host', { reason: 'The host operation failed.' });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Lower-cases request header names once, so getHeader(name) is a plain lookup in the sandbox. */
function normalizeContext(context: ScriptContext | undefined): ScriptContext {
  const c = { ...(context ?? {}) };
  if (c.request?.headers) {
    const headers: Record<string, string | string[] | undefined> = {};
    for (const [k, v] of Object.entries(c.request.headers)) headers[k.toLowerCase()] = v;
    c.request = { ...c.request, headers };
  }
  return c;
}
