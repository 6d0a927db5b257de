/**
 * What the script runner takes and answers: a run request with its host functions, the context a
 * host function is called with, and the result with its statistics. Shared by the runner, its
 * worker slots and the host functions (host-driver.ts, host-tokens.ts, script-host.ts).
 */
import { makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { limitFault } from './script-faults.js';
import type { ScriptLimits } from './limits.js';
import type { LogLine, ReturnedCursor, ScriptContext, ScriptFault } from './protocol.js';
import type { QueueKeys, QueueLimits } from './run-queue.js';

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
  /**
   * Whose run it is, for the fair queue (run-queue.ts): the org and the caller inside it (an
   * account id, or `ip:<address>` for an anonymous caller). Absent: one shared key.
   */
  queue?: QueueKeys;
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

/** One org's share of the pool now (ScriptRunner.activity). */
export interface RunActivity {
  runs: { runId: number; depth: number; ms: number; request: RunRequest }[];
  workers: { busy: boolean; borrowed: boolean }[];
}

export interface ScriptRunnerOptions {
  /** Worker threads kept ready (default 2). Nested runs borrow extra workers when all are busy. */
  poolSize?: number;
  limits?: Partial<ScriptLimits>;
  /** How long past its time limit a silent worker is given before it is terminated (default 1000 ms). */
  hardStopMarginMs?: number;
  /**
   * The fair queue's bounds (run-queue.ts). `maxBusyPerOrg` defaults to `poolSize`: set it lower
   * to keep workers free for other orgs while one org's runs are busy (the service keeps one).
   */
  queue?: Partial<QueueLimits>;
  /** A worker whose engine memory grew past this after a run is replaced (default 48 MiB). */
  recycleAboveBytes?: number;
  /** Time for the queue's waits (the service's clock; default `performance.now`). */
  clock?: { now(): number };
}

/** Statistics of a run that never reached a worker. */
export const EMPTY_STATS = (): RunStats => ({
  elapsedMs: 0,
  cpuMs: 0,
  operations: 0,
  memoryPeakBytes: 0,
  bytesIn: 0,
  bytesOut: 0,
  callouts: 0,
});

/** A run refused before (or instead of) running: its fault and no logs. */
export function refused(fault: FaultBody): RunResult {
  return { ok: false, fault, logs: [], stats: EMPTY_STATS() };
}

/** Why a request is refused before it waits or runs, or undefined. */
export function refusal(request: RunRequest, limits: ScriptLimits, depth: number): FaultBody | undefined {
  if (typeof request.source !== 'string') {
    return makeFault('invalidArgument', 'script', { reason: 'The script source must be a string.' });
  }
  if (request.source.length > limits.maxScriptChars) {
    return limitFault(
      'size',
      `The script has ${request.source.length} characters; the limit is ${limits.maxScriptChars}.`,
    );
  }
  if (depth > limits.maxDepth) return limitFault('depth', `Scripts may nest at most ${limits.maxDepth} deep.`);
  return undefined;
}
