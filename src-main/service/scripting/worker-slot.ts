/**
 * One worker thread of the runner's pool and the run it holds. A slot's worker loads the engine,
 * takes one run at a time, asks host calls over its own port and sleeps on a shared signal until
 * the reply is posted (`postReply`). The runner decides what the worker's events mean.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ENGINE_MEMORY_MAX_BYTES, type ScriptLimits } from './limits.js';
import { makeFault } from '../../../src-shared/faults.js';
import { readReturnedCursor } from './protocol.js';
import type { HostCallMessage, HostReplyMessage, ScriptContext, WorkerInit, WorkerToMain } from './protocol.js';
import type { RunRequest, RunResult, RunStats } from './run-types.js';
import { resolveWorkerUrl } from '../workers/bundled-worker.js';

export interface ActiveRun {
  runId: number;
  request: RunRequest;
  limits: ScriptLimits;
  depth: number;
  /** The org the run is for (its queue key), counted against the org's share of the workers. */
  org: string;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (r: RunResult) => void;
}

export interface Slot {
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
  /** Size of the worker's engine memory as last reported (bytes). */
  engineBytes: number;
  /** When its last run finished, in finished runs (runner.ts picks the free slot idle longest). */
  freeSince?: number;
}

let freed = 0;
/** The slot's run is over: it has no active run, free since now (`freeSince`). */
export function markFree(slot: Slot): void {
  slot.active = undefined;
  slot.freeSince = ++freed;
}

/**
 * The pool worker free the longest: a worker prepares its next run's context once it has
 * answered one (engine-prepared.ts), so the one that waited longest has it ready.
 */
export function longestFree(slots: readonly Slot[]): Slot | undefined {
  let best: Slot | undefined;
  for (const s of slots) {
    if (!s.active && !s.dead && !s.overflow && (!best || (s.freeSince ?? 0) < (best.freeSince ?? 0))) best = s;
  }
  return best;
}

/** What a slot's worker reports; the runner handles each. */
export interface SlotEvents {
  started(slot: Slot): void;
  done(slot: Slot, m: Extract<WorkerToMain, { type: 'done' }>): void;
  hostCall(slot: Slot, m: HostCallMessage): void;
  crashed(slot: Slot, e: Error): void;
}

/** Starts a worker (its `ready` resolves when the engine is loaded). */
export function spawnSlot(overflow: boolean, events: SlotEvents): Slot {
  const { port1, port2 } = new MessageChannel();
  const sab = new SharedArrayBuffer(4);
  const signal = new Int32Array(sab);
  const slot = {
    hostPort: port1,
    signal,
    overflow,
    dead: false,
    retired: false,
    started: false,
    engineBytes: 0,
  } as Slot;
  const urlPromise = resolveWorkerUrl('scripting-worker');
  slot.ready = urlPromise.then(
    (url) =>
      new Promise<void>((resolveReady, rejectReady) => {
        if (slot.retired) return resolveReady();
        const init: WorkerInit = { hostPort: port2, signal: sab, maxMemoryBytes: ENGINE_MEMORY_MAX_BYTES };
        const worker = new Worker(url, { workerData: init, transferList: [port2] });
        slot.worker = worker;
        // Idle workers do not keep the process alive; a running one does (see dispatch/finish).
        worker.unref();
        worker.on('message', (m: WorkerToMain) => {
          if (m.type === 'ready') {
            slot.started = true;
            slot.engineBytes = m.engineBytes;
            events.started(slot);
            return resolveReady();
          }
          if (m.type === 'done') events.done(slot, m);
        });
        worker.on('error', (e) => {
          rejectReady(e);
          events.crashed(slot, e);
        });
        worker.on('exit', () => events.crashed(slot, new Error('worker exited')));
      }),
  );
  slot.ready.catch(() => undefined);
  port1.on('message', (m: HostCallMessage) => events.hostCall(slot, m));
  port1.unref();
  return slot;
}

/** Hands a host call's reply to the worker waiting on the slot's signal. */
export function postReply(slot: Slot, reply: HostReplyMessage): void {
  // The run may have ended (timeout) while the host worked: the worker skips stale replies.
  if (slot.retired) return;
  slot.hostPort.postMessage(reply);
  Atomics.store(slot.signal, 0, 1);
  Atomics.notify(slot.signal, 0);
}

/** Lower-cases request header names once, so getHeader(name) is a plain lookup in the sandbox. */
export function normalizeContext(context: ScriptContext | undefined): ScriptContext {
  const c = { ...(context ?? {}) };
  if (c.request?.headers) {
    const headers: Record<string, string | string[] | undefined> = {};
    for (const [k, v] of Object.entries(c.request.headers)) headers[k.toLowerCase()] = v;
    c.request = { ...c.request, headers };
  }
  return c;
}

/** The result of a run its worker finished (a returned cursor answers with its buffered records). */
export function doneResult(m: Extract<WorkerToMain, { type: 'done' }>, started: number): RunResult {
  const stats: RunStats = { ...m.stats, elapsedMs: roundMs(performance.now() - started), callouts: 0 };
  const value = m.ok && m.valueJson !== undefined ? (JSON.parse(m.valueJson) as unknown) : null;
  const cursor = m.ok && m.cursor ? readReturnedCursor(value) : undefined;
  return m.ok
    ? cursor
      ? { ok: true, value: cursor.buffered, cursor, logs: m.logs, stats }
      : { ok: true, value, logs: m.logs, stats }
    : { ok: false, fault: m.fault ?? makeFault('error', 'script'), logs: m.logs, stats };
}

export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
