/**
 * What the script runner takes and answers: a run request with its host functions, the context a
 * host function is called with, and the result with its statistics. Shared by the runner, its
 * worker slots and the host functions (host-driver.ts, host-tokens.ts, script-host.ts).
 */
import type { FaultBody } from '../../../src-shared/faults.js';
import type { ScriptLimits } from './limits.js';
import type { LogLine, ReturnedCursor, ScriptContext, ScriptFault } from './protocol.js';

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
