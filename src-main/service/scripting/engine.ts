/**
 * One script run inside QuickJS (WebAssembly): a fresh runtime and context per run (prepared with
 * the prelude compiled, engine-prepared.ts), the limits applied, the prelude started with the
 * run's context, the user script wrapped and invoked. Runs synchronously in a
 * sandbox worker; host calls go through `bridge.call`, which blocks until the service thread
 * answers. Nothing of Node is reachable from the script: the context has only the ECMAScript
 * intrinsics plus the three native functions the prelude consumes. What a failure reads as is
 * script-faults.ts.
 */
import {
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { ScriptLimits } from './limits.js';
import { SCRIPT_FILENAME, SCRIPT_WRAPPER_HEAD, SCRIPT_WRAPPER_TAIL } from './prelude.js';
import { disposeEngine, memoryUsedBytes, prepareEngine, type PreparedEngine } from './engine-prepared.js';
import { boundFault, clip, errorToFault, limitFault, MAX_THROWN_TEXT } from './script-faults.js';
import type { EngineMemory } from './engine-memory.js';
import type { HostReplyMessage, LogLine, ScriptContext, ScriptFault, WorkerStats } from './protocol.js';

export interface HostBridge {
  /** Performs one host call; `timeoutMs` is what is left of the run's budget. */
  call(name: string, argsJson: string, asJson: string | null, timeoutMs: number): HostReplyMessage | 'timeout';
  /** The source text of a bundled library (`should`, `moment`, …), or undefined (prelude/require.ts). */
  builtinSource?(name: string): string | undefined;
}

export interface EngineResult {
  ok: boolean;
  valueJson?: string;
  /** The script returned a cursor: `valueJson` is its `ReturnedCursor` (protocol.ts). */
  cursor?: boolean;
  fault?: ScriptFault;
  logs: LogLine[];
  stats: WorkerStats;
}

/** How often the interrupt handler measures the heap (measuring costs about as much as 1k ops). */
const MEMORY_CHECK_EVERY_MS = 5;

const LOG_LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

export function runInEngine(
  mod: QuickJSWASMModule,
  source: string,
  context: ScriptContext,
  limits: ScriptLimits,
  bridge: HostBridge,
  memory?: EngineMemory,
  prepared?: PreparedEngine,
  /**
   * Takes the spent engine instead of disposing it here: freeing a runtime costs about a
   * millisecond, which the worker pays after posting the answer rather than before (worker.ts).
   */
  release: (engine: PreparedEngine) => void = disposeEngine,
): EngineResult {
  const started = performance.now();
  const deadline = started + limits.timeoutMs;
  let waitedMs = 0;
  let fatal: ScriptFault | undefined;
  let exitJson: string | undefined;
  const logs: LogLine[] = [];
  let consoleBytes = 0;
  let lastMemoryCheck = started;
  const stats: WorkerStats = { cpuMs: 0, operations: 0, memoryPeakBytes: 0, bytesIn: 0, bytesOut: 0 };

  // Every allocation of the run counts: its share of the engine's memory is capped (engine-memory.ts).
  const runMemory = memory?.beginRun(limits.memoryBytes);
  const memoryFault = () =>
    limitFault('memory', `The script used more than its memory limit of ${limits.memoryBytes} bytes.`);
  let engine: PreparedEngine | undefined = prepared;
  let rt: QuickJSRuntime | undefined;
  let ctx: QuickJSContext | undefined;
  try {
    // Prepared ahead by the worker while it waited (engine-prepared.ts), else now, inside the run.
    engine ??= prepareEngine(mod, bridge.builtinSource?.bind(bridge));
    ({ rt, ctx } = engine);
    // A backstop only: this limit refuses one allocation larger than the limit, not many smaller ones.
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(limits.stackBytes);
    // Called by the engine every few thousand instructions; returning true throws an uncatchable
    // "interrupted" error. Also used to end a run at once after a fatal limit or script.exit.
    rt.setInterruptHandler(() => {
      if (runMemory?.refused) fatal ??= memoryFault();
      if (fatal || exitJson !== undefined) return true;
      const now = performance.now();
      if (now > deadline) {
        fatal = limitFault('timeout', `The script ran longer than its limit of ${limits.timeoutMs} ms.`);
        return true;
      }
      if (now - lastMemoryCheck >= MEMORY_CHECK_EVERY_MS) {
        lastMemoryCheck = now;
        sampleMemory();
        if (fatal) return true;
      }
      return false;
    });
    const vm = ctx;
    engine.hooks.host = hostCall;
    engine.hooks.log = (level, message) => {
      consoleBytes += Buffer.byteLength(message) + 1;
      if (consoleBytes > limits.maxConsoleBytes) {
        fatal ??= limitFault('console', `Console output exceeded ${limits.maxConsoleBytes} bytes.`);
        return;
      }
      logs.push({ level: (LOG_LEVELS.has(level) ? level : 'log') as LogLine['level'], message });
    };
    engine.hooks.exit = (valueJson) => {
      exitJson ??= valueJson;
    };
    const contextH = vm.newString(JSON.stringify({ ...context, pageSize: limits.cursorPageSize }));
    const begun = vm.callFunction(engine.start, vm.undefined, contextH);
    contextH.dispose();
    if (begun.error) {
      const err = vm.dump(begun.error) as unknown;
      begun.error.dispose();
      throw new Error(`prelude failed: ${JSON.stringify(err)}`);
    }
    const invoke = begun.value;

    let outcome: { ok: true; json: string } | { ok: false; error: unknown };
    const compiled = vm.evalCode(SCRIPT_WRAPPER_HEAD + source + SCRIPT_WRAPPER_TAIL, SCRIPT_FILENAME);
    if (compiled.error) {
      outcome = { ok: false, error: readThrown(vm, compiled.error) };
      compiled.error.dispose();
    } else {
      const r = vm.callFunction(invoke, vm.undefined, compiled.value);
      compiled.value.dispose();
      if (r.error) {
        outcome = { ok: false, error: readThrown(vm, r.error) };
        r.error.dispose();
      } else {
        outcome = { ok: true, json: vm.getString(r.value) };
        r.value.dispose();
      }
    }
    invoke.dispose();
    sampleMemory();
    // Caught by the script or not, an allocation past the cap ends the run with the memory fault.
    if (runMemory?.refused) fatal ??= memoryFault();

    stats.cpuMs = round(performance.now() - started - waitedMs);
    if (fatal) return { ok: false, fault: boundFault(fatal), logs, stats };
    if (exitJson !== undefined) return finishValue(exitJson);
    if (outcome.ok) return finishValue(outcome.json);
    return { ok: false, fault: errorToFault(outcome.error), logs, stats };
  } catch (e) {
    stats.cpuMs = round(performance.now() - started - waitedMs);
    if (runMemory?.refused) fatal ??= memoryFault();
    return {
      ok: false,
      fault: boundFault(
        fatal ?? makeFault('error', 'script', { reason: clip(`Sandbox failure: ${(e as Error).message}`, 1000) }),
      ),
      logs,
      stats,
    };
  } finally {
    if (runMemory) stats.memoryPeakBytes = Math.max(stats.memoryPeakBytes, runMemory.peakBytes());
    runMemory?.end();
    if (engine) release(engine);
  }

  function finishValue(encoded: string): EngineResult {
    const cursor = encoded.startsWith('C');
    const json = cursor ? encoded.slice(1) : encoded;
    const bytes = Buffer.byteLength(json);
    if (bytes > limits.maxOutputBytes) {
      return {
        ok: false,
        fault: limitFault('output', `The result is ${bytes} bytes; the limit is ${limits.maxOutputBytes}.`),
        logs,
        stats,
      };
    }
    return { ok: true, valueJson: json, ...(cursor ? { cursor } : {}), logs, stats };
  }

  /**
   * The engine's own malloc limit counts allocations, not their sizes, in this WebAssembly build
   * (a 30 MB array of strings passes a 16 MB limit), so the real heap in use is also sampled here:
   * every few ms from the interrupt handler and from host calls, and at the end of the run.
   */
  function sampleMemory(): void {
    if (!ctx || !rt) return;
    const used = memoryUsedBytes({ rt, ctx });
    if (used > stats.memoryPeakBytes) stats.memoryPeakBytes = used;
    if (used > limits.memoryBytes) {
      fatal ??= limitFault('memory', `The script used more than its memory limit of ${limits.memoryBytes} bytes.`);
    }
  }

  /** One host call; limits that end the run set `fatal` (the interrupt handler then stops it). */
  function hostCall(name: string, argsJson: string, asJson: string | null): string {
    if (runMemory?.refused) fatal ??= memoryFault();
    if (fatal || exitJson !== undefined) return refuse(fatal ?? limitFault('exit', 'The script has exited.'));
    stats.operations += 1;
    if (stats.operations > limits.maxOperations) {
      fatal = limitFault('operations', `The script exceeded its limit of ${limits.maxOperations} operations.`);
      return refuse(fatal);
    }
    stats.bytesIn += Buffer.byteLength(argsJson) + (asJson ? Buffer.byteLength(asJson) : 0);
    if (stats.bytesIn > limits.maxBytesIn) {
      fatal = limitFault('bytesIn', `The script passed more than ${limits.maxBytesIn} bytes to host calls.`);
      return refuse(fatal);
    }
    if (performance.now() - lastMemoryCheck >= MEMORY_CHECK_EVERY_MS) {
      lastMemoryCheck = performance.now();
      sampleMemory();
      if (fatal) return refuse(fatal);
    }
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      fatal = limitFault('timeout', `The script ran longer than its limit of ${limits.timeoutMs} ms.`);
      return refuse(fatal);
    }
    const t0 = performance.now();
    const reply = bridge.call(name, argsJson, asJson, remaining);
    waitedMs += performance.now() - t0;
    if (reply === 'timeout') {
      fatal = limitFault('timeout', `The script ran longer than its limit of ${limits.timeoutMs} ms.`);
      return refuse(fatal);
    }
    const replyJson = reply.ok
      ? `{"ok":true,"value":${reply.valueJson}}`
      : JSON.stringify({ ok: false, fault: reply.fault });
    stats.bytesOut += Buffer.byteLength(replyJson);
    return replyJson;
  }
}

function refuse(f: FaultBody): string {
  return JSON.stringify({ ok: false, fault: f });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Properties of a thrown object that make up its fault (script-faults.ts errorToFault). */
const THROWN_KEYS = ['name', 'message', 'stack', 'object', 'errCode', 'code', 'status', 'reason', 'path', 'faultName'];

/**
 * What the script threw, read property by property and clipped here, in the worker: a thrown
 * value can be as large as the script's memory (a 30 MB message), and none of that may cross to
 * the service thread. Objects without a message or errCode are kept as clipped JSON text.
 */
function readThrown(vm: QuickJSContext, h: QuickJSHandle): unknown {
  try {
    const type = vm.typeof(h);
    if (type === 'string') return clip(vm.getString(h), MAX_THROWN_TEXT);
    if (type !== 'object') return vm.dump(h) as unknown;
    const out: Record<string, unknown> = {};
    for (const key of THROWN_KEYS) {
      const p = vm.getProp(h, key);
      const t = vm.typeof(p);
      if (t === 'string') out[key] = clip(vm.getString(p), MAX_THROWN_TEXT);
      else if (t === 'number') out[key] = vm.getNumber(p);
      p.dispose();
    }
    if (typeof out.message === 'string' || typeof out.errCode === 'string') return out;
    const json = vm.dump(h) as unknown;
    return {
      thrownJson: clip(typeof json === 'string' ? json : (JSON.stringify(json) ?? String(json)), MAX_THROWN_TEXT),
    };
  } catch {
    return { name: 'Error', message: 'unreadable error' };
  }
}
