/**
 * One script run inside QuickJS (WebAssembly): a fresh runtime and context per run, the limits
 * applied, the prelude evaluated, the user script wrapped and invoked. Runs synchronously in a
 * sandbox worker; host calls go through `bridge.call`, which blocks until the service thread
 * answers. Nothing of Node is reachable from the script: the context has only the ECMAScript
 * intrinsics plus the three native functions the prelude consumes.
 */
import {
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import {
  FAULT_CATEGORIES,
  makeFault,
  isFaultBody,
  type FaultBody,
  type FaultCategory,
} from '../../../src-shared/faults.js';
import type { ScriptLimits } from './limits.js';
import {
  PRELUDE_FILENAME,
  PRELUDE_SOURCE,
  SCRIPT_FILENAME,
  SCRIPT_WRAPPER_HEAD,
  SCRIPT_WRAPPER_TAIL,
} from './prelude.js';
import type { HostReplyMessage, LogLine, ScriptContext, ScriptFault, WorkerStats } from './protocol.js';

export interface HostBridge {
  /** Performs one host call; `timeoutMs` is what is left of the run's budget. */
  call(name: string, argsJson: string, asJson: string | null, timeoutMs: number): HostReplyMessage | 'timeout';
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

/** Faults naming the limit that ended a run (errCode `service.<category>.<detail>`). */
export function limitFault(limit: string, reason: string): ScriptFault {
  switch (limit) {
    case 'timeout':
      return makeFault('timeout', 'script', { reason });
    case 'size':
      return makeFault('tooLarge', 'script', { reason });
    default:
      return makeFault('tooLarge', `script.${limit}`, { reason });
  }
}

export function runInEngine(
  mod: QuickJSWASMModule,
  source: string,
  context: ScriptContext,
  limits: ScriptLimits,
  bridge: HostBridge,
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

  const rt: QuickJSRuntime = mod.newRuntime();
  let ctx: QuickJSContext | undefined;
  try {
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(limits.stackBytes);
    // Called by the engine every few thousand instructions; returning true throws an uncatchable
    // "interrupted" error. Also used to end a run at once after a fatal limit or script.exit.
    rt.setInterruptHandler(() => {
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
    ctx = rt.newContext();
    const vm = ctx;

    const hostFn = vm.newFunction('__host', (nameH, argsH, asH) => {
      const name = vm.getString(nameH);
      const argsJson = vm.getString(argsH);
      const asJson = vm.typeof(asH) === 'string' ? vm.getString(asH) : null;
      const replyJson = hostCall(name, argsJson, asJson);
      return vm.newString(replyJson);
    });
    const logFn = vm.newFunction('__log', (levelH, textH) => {
      const level = vm.getString(levelH);
      const message = vm.getString(textH);
      consoleBytes += Buffer.byteLength(message) + 1;
      if (consoleBytes > limits.maxConsoleBytes) {
        fatal ??= limitFault('console', `Console output exceeded ${limits.maxConsoleBytes} bytes.`);
        return;
      }
      logs.push({ level: (LOG_LEVELS.has(level) ? level : 'log') as LogLine['level'], message });
    });
    const exitFn = vm.newFunction('__exit', (valueH) => {
      exitJson ??= vm.getString(valueH);
    });
    vm.setProp(vm.global, '__host', hostFn);
    vm.setProp(vm.global, '__log', logFn);
    vm.setProp(vm.global, '__exit', exitFn);
    hostFn.dispose();
    logFn.dispose();
    exitFn.dispose();
    const contextJson = JSON.stringify({ ...context, pageSize: limits.cursorPageSize });
    const ctxStr = vm.newString(contextJson);
    vm.setProp(vm.global, '__context', ctxStr);
    ctxStr.dispose();

    const preludeResult = vm.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME);
    if (preludeResult.error) {
      const err = vm.dump(preludeResult.error) as unknown;
      preludeResult.error.dispose();
      throw new Error(`prelude failed: ${JSON.stringify(err)}`);
    }
    const invoke = preludeResult.value;

    let outcome: { ok: true; json: string } | { ok: false; error: unknown };
    const compiled = vm.evalCode(SCRIPT_WRAPPER_HEAD + source + SCRIPT_WRAPPER_TAIL, SCRIPT_FILENAME);
    if (compiled.error) {
      outcome = { ok: false, error: dumpError(vm, compiled.error) };
      compiled.error.dispose();
    } else {
      const r = vm.callFunction(invoke, vm.undefined, compiled.value);
      compiled.value.dispose();
      if (r.error) {
        outcome = { ok: false, error: dumpError(vm, r.error) };
        r.error.dispose();
      } else {
        outcome = { ok: true, json: vm.getString(r.value) };
        r.value.dispose();
      }
    }
    invoke.dispose();
    sampleMemory();

    stats.cpuMs = round(performance.now() - started - waitedMs);
    if (fatal) return { ok: false, fault: fatal, logs, stats };
    if (exitJson !== undefined) return finishValue(exitJson);
    if (outcome.ok) return finishValue(outcome.json);
    return { ok: false, fault: errorToFault(outcome.error), logs, stats };
  } catch (e) {
    stats.cpuMs = round(performance.now() - started - waitedMs);
    return {
      ok: false,
      fault: fatal ?? makeFault('error', 'script', { reason: `Sandbox failure: ${(e as Error).message}` }),
      logs,
      stats,
    };
  } finally {
    ctx?.dispose();
    rt.dispose();
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
    if (!ctx) return;
    const h = rt.computeMemoryUsage();
    const usage = ctx.dump(h) as { memory_used_size?: number };
    h.dispose();
    const used = usage.memory_used_size ?? 0;
    if (used > stats.memoryPeakBytes) stats.memoryPeakBytes = used;
    if (used > limits.memoryBytes) {
      fatal ??= limitFault('memory', `The script used more than its memory limit of ${limits.memoryBytes} bytes.`);
    }
  }

  /** One host call; limits that end the run set `fatal` (the interrupt handler then stops it). */
  function hostCall(name: string, argsJson: string, asJson: string | null): string {
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

function dumpError(vm: QuickJSContext, h: QuickJSHandle): unknown {
  try {
    return vm.dump(h);
  } catch {
    return { name: 'Error', message: 'unreadable error' };
  }
}

/**
 * Turns what the script threw into a fault (§B: "a script error is a fault with a trace"). A host
 * fault keeps its own codes; an error or object the script throws with an `errCode` of the form
 * `service.<category>[.<detail>]` keeps that errCode, with its category's code and status; anything
 * else (a TypeError, `throw new Error(…)`, a syntax error) is `service.invalidArgument.script`
 * (400): the script failed, not the service, so it is never answered as a server error.
 */
export function errorToFault(error: unknown): ScriptFault {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as Record<
    string,
    unknown
  >;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = typeof e.message === 'string' ? e.message : String(error);
  const trace = buildTrace(name, message, typeof e.stack === 'string' ? e.stack : '');
  if (name === 'InternalError' && /out of memory/i.test(message)) {
    return { ...limitFault('memory', 'The script exceeded its memory limit.'), trace };
  }
  if (name === 'InternalError' && /stack overflow/i.test(message)) {
    return { ...limitFault('stack', 'The script exceeded its stack limit (recursion too deep).'), trace };
  }
  if (e.object === 'fault' && typeof e.errCode === 'string') {
    const candidate: Record<string, unknown> = {
      object: 'fault',
      name: e.faultName,
      code: e.code,
      errCode: e.errCode,
      status: e.status,
      message,
    };
    if (typeof e.reason === 'string') candidate.reason = e.reason;
    if (typeof e.path === 'string') candidate.path = e.path;
    if (isFaultBody(candidate)) return { ...candidate, trace };
  }
  const own = scriptFault(e);
  if (own) return { ...own, trace };
  if (error === null || typeof error !== 'object' || !('message' in e)) {
    // `throw "text"` or `throw {…}`: keep what was thrown as the reason.
    let reason: string;
    try {
      reason = typeof error === 'string' ? error : JSON.stringify(error);
    } catch {
      reason = String(error);
    }
    return { ...makeFault('invalidArgument', 'script', { message: 'Script error.', reason }), trace: 'Error' };
  }
  return { ...makeFault('invalidArgument', 'script', { message: `${name}: ${message}`, reason: message }), trace };
}

const SCRIPT_ERRCODE = /^service\.([A-Za-z]+)(?:\.([A-Za-z0-9_.-]{1,100}))?$/;

/** A fault the script raised itself (`e.errCode = 'service.notFound.thing'`), rebuilt from its category. */
function scriptFault(e: Record<string, unknown>): FaultBody | undefined {
  if (typeof e.errCode !== 'string') return undefined;
  const m = SCRIPT_ERRCODE.exec(e.errCode);
  const category = m?.[1];
  if (!m || category === undefined || !Object.hasOwn(FAULT_CATEGORIES, category)) return undefined;
  const reason = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : '';
  return makeFault(category as FaultCategory, m[2], {
    ...(typeof e.message === 'string' && e.message !== '' ? { message: e.message.slice(0, 1000) } : {}),
    ...(reason ? { reason: reason.slice(0, 4000) } : {}),
    ...(typeof e.path === 'string' ? { path: e.path.slice(0, 200) } : {}),
  });
}

/**
 * `Error: msg\n\tmain Script:8` — frames of the user script only (the prelude's are internal);
 * the wrapper function is named `main`, so a top-level line reads `main Script:<line>`.
 */
export function buildTrace(name: string, message: string, stack: string): string {
  const frames: string[] = [];
  for (const raw of stack.split('\n')) {
    const m = /^\s*at (?:(.*?) \()?([^():]+):(\d+)(?::\d+)?\)?\s*$/.exec(raw);
    if (!m || m[2] !== SCRIPT_FILENAME) continue;
    const fn = !m[1] || m[1] === '<anonymous>' || m[1] === '<eval>' ? 'main' : m[1];
    frames.push(`\t${fn} ${SCRIPT_FILENAME}:${m[3]}`);
  }
  const head = message ? `${name}: ${message}` : name;
  return [head, ...frames].join('\n');
}
