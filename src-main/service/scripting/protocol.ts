/**
 * Messages between the runner (service thread) and a sandbox worker. Two channels:
 * - the worker's parentPort carries runs (`run` → `done`);
 * - a dedicated MessagePort carries host calls (`call` → `reply`) while the worker is blocked in
 *   `Atomics.wait` on `signal`, so a host call is synchronous inside the script yet runs on the
 *   service thread, next to the data layer.
 */
import type { MessagePort } from 'node:worker_threads';
import type { FaultBody } from '../../../src-shared/faults.js';
import type { ScriptLimits } from './limits.js';

/** A fault as a script run answers it: the service's fault, plus the script line trace. */
export type ScriptFault = FaultBody & { trace?: string };

export interface ScriptContext {
  arguments?: unknown;
  principal?: unknown;
  env?: Record<string, unknown>;
  org?: { _id?: string; code?: string } & Record<string, unknown>;
  request?: ScriptRequest;
  /** The script's `consts` (script-consts.ts). */
  consts?: Record<string, unknown>;
  /** `require('http')` is on for the org (the host checks it again on every call). */
  httpEnabled?: boolean;
  /** A trigger run (issue 41): the record it runs for and how (prelude-trigger.ts). */
  trigger?: TriggerRunContext;
}

export interface TriggerRunContext {
  event: string;
  op: 'create' | 'update' | 'delete';
  /** Whether the run may change the record (before triggers). */
  inline: boolean;
  /** The record as the trigger sees it: `script.context`. */
  subject: Record<string, unknown>;
}

export interface ScriptRequest {
  method?: string;
  path?: string;
  /** Header names are lower-cased by the runner before the run. */
  headers?: Record<string, string | string[] | undefined>;
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
}

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

export interface WorkerStats {
  cpuMs: number;
  operations: number;
  memoryPeakBytes: number;
  bytesIn: number;
  bytesOut: number;
}

export interface WorkerInit {
  hostPort: MessagePort;
  /** Int32Array(1) view: 0 while a host call is pending, 1 once its reply has been posted. */
  signal: SharedArrayBuffer;
  /** Hard maximum of the engine's WebAssembly memory, whatever a run's limit says. */
  maxMemoryBytes: number;
}

export interface RunMessage {
  type: 'run';
  runId: number;
  source: string;
  context: ScriptContext;
  limits: ScriptLimits;
  /** Test hook: spin (uninterruptibly) this long before running, to exercise the hard stop. */
  debugBlockMs?: number;
}

export type WorkerToMain =
  | { type: 'ready'; engineBytes: number }
  | {
      type: 'done';
      runId: number;
      ok: boolean;
      /** JSON text of the result (`null` for undefined). */
      valueJson?: string;
      /** The script returned a cursor: `valueJson` holds a `ReturnedCursor`. */
      cursor?: boolean;
      fault?: ScriptFault;
      logs: LogLine[];
      stats: WorkerStats;
      /** Size of the worker's engine memory after the run (it never shrinks): the runner recycles big ones. */
      engineBytes: number;
    };

export interface HostCallMessage {
  type: 'call';
  runId: number;
  seq: number;
  name: string;
  /** JSON text of the argument array. */
  argsJson: string;
  /** JSON text of the principal set by `script.as`, or null outside `script.as`. */
  asJson: string | null;
}

export type HostReplyMessage =
  | { type: 'reply'; seq: number; ok: true; valueJson: string }
  | { type: 'reply'; seq: number; ok: false; fault: FaultBody };

/**
 * A cursor a script returned (§B: "a cursor returned by the script is streamed like `cursor`"):
 * the records it had fetched but not handed out, and the driver options of the rest of its query
 * (null when it is exhausted). The service answers them after the run, as the run's principal.
 */
export interface ReturnedCursor {
  object: string;
  options: Record<string, unknown> | null;
  buffered: unknown[];
  /** Where the rest continues: the last fetched record's sort-key values (records/walk.ts). */
  after?: unknown[];
}

/** A cursor descriptor from the sandbox, checked (it is script output); undefined when malformed. */
export function readReturnedCursor(value: unknown): ReturnedCursor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { object, options, buffered, after } = value as Record<string, unknown>;
  if (typeof object !== 'string' || !Array.isArray(buffered)) return undefined;
  if (options !== null && (typeof options !== 'object' || Array.isArray(options))) return undefined;
  if (after !== undefined && !Array.isArray(after)) return undefined;
  return { object, options: options as Record<string, unknown> | null, buffered, ...(after ? { after } : {}) };
}
