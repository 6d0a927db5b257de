/**
 * Entry of a sandbox worker thread (bundled as dist/main/scripting-worker.js). Loads QuickJS once,
 * then runs scripts one at a time on request. A host call posts on the dedicated host port and
 * blocks in Atomics.wait until the service thread has posted the reply and flipped the signal
 * (the pattern of the `synckit` package), so the script sees a synchronous call.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { makeFault } from '../../../src-shared/faults.js';
import { runInEngine, type HostBridge } from './engine.js';
import { disposeEngine, prepareEngine, type PreparedEngine } from './engine-prepared.js';
import { EngineMemory, type EngineAllocator } from './engine-memory.js';
import { DEFAULT_SCRIPT_LIMITS } from './limits.js';
import { bundledSource } from './bundled-libraries.js';
import type { HostCallMessage, HostReplyMessage, RunMessage, WorkerInit, WorkerToMain } from './protocol.js';

const init = workerData as WorkerInit;
const signal = new Int32Array(init.signal);
const hostPort = init.hostPort;
const port = parentPort;
if (!port) throw new Error('scripting worker must run in a worker thread');

let seq = 0;
let currentRunId = 0;

const bridge: HostBridge = {
  builtinSource: bundledSource,
  call(name, argsJson, asJson, timeoutMs) {
    const mySeq = ++seq;
    const msg: HostCallMessage = { type: 'call', runId: currentRunId, seq: mySeq, name, argsJson, asJson };
    Atomics.store(signal, 0, 0);
    hostPort.postMessage(msg);
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const got = receiveMessageOnPort(hostPort) as { message: HostReplyMessage } | undefined;
      if (got) {
        // A reply to an earlier call that timed out may arrive late: skip it.
        if (got.message.seq === mySeq) return got.message;
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) return 'timeout';
      Atomics.wait(signal, 0, 0, left);
      Atomics.store(signal, 0, 0);
    }
  },
};

/** The engine's memory is this worker's own, so every growth passes through its cap (engine-memory.ts). */
const memory = new EngineMemory(init.maxMemoryBytes);
let allocator: EngineAllocator | undefined;

/** The release-sync variant on `memory`, keeping hold of the module's allocator. */
function variantOnMemory(): QuickJSSyncVariant {
  const base = newVariant(releaseSync, { wasmMemory: memory.memory });
  return {
    ...base,
    importModuleLoader: async () => {
      const load = await base.importModuleLoader();
      const loader = typeof load === 'function' ? load : 'default' in load ? load.default : undefined;
      if (typeof loader !== 'function') throw new Error('unexpected QuickJS module loader');
      return async (options) => {
        const module = await loader(options);
        allocator = module;
        return module;
      };
    },
  };
}

const modulePromise: Promise<QuickJSWASMModule> = newQuickJSWASMModuleFromVariant(variantOnMemory()).then((mod) => {
  // Warm the engine so the first real run does not pay for compilation of the hot paths.
  for (let i = 0; i < 20; i++) {
    runInEngine(mod, 'return 1', {}, DEFAULT_SCRIPT_LIMITS, bridge);
  }
  if (!allocator) throw new Error('the QuickJS module exposed no allocator');
  memory.attach(allocator);
  prepareNext(mod);
  return mod;
});

/**
 * The context of the next run, its prelude compiled while the worker waits (engine-prepared.ts):
 * compiling it was most of a trivial run's time. Used by one run only; a run that finds none
 * prepares its own.
 */
let prepared: PreparedEngine | undefined;
function prepareNext(mod: QuickJSWASMModule): void {
  if (prepared) return;
  try {
    prepared = prepareEngine(mod, bridge.builtinSource);
  } catch {
    prepared = undefined; // the run prepares its own, and answers what went wrong
  }
}

modulePromise.then(
  () => port.postMessage({ type: 'ready', engineBytes: memory.sizeBytes } satisfies WorkerToMain),
  (e: unknown) => {
    throw e;
  },
);

port.on('message', (msg: RunMessage) => {
  if (msg.type !== 'run') return;
  void modulePromise.then((mod) => {
    currentRunId = msg.runId;
    // Drop replies left over from a previous run's timed-out call.
    while (receiveMessageOnPort(hostPort)) {
      /* discard */
    }
    if (msg.debugBlockMs) {
      const until = performance.now() + msg.debugBlockMs;
      while (performance.now() < until) {
        /* test hook: an uninterruptible stall */
      }
    }
    let done: WorkerToMain;
    const spent: { engine?: PreparedEngine } = {};
    try {
      const ready = prepared;
      prepared = undefined;
      const r = runInEngine(mod, msg.source, msg.context, msg.limits, bridge, memory, ready, (e) => (spent.engine = e));
      done = { type: 'done', runId: msg.runId, ...r, engineBytes: memory.sizeBytes };
    } catch (e) {
      done = {
        type: 'done',
        runId: msg.runId,
        ok: false,
        fault: makeFault('error', 'script', { reason: `Sandbox failure: ${(e as Error).message}` }),
        logs: [],
        stats: { cpuMs: 0, operations: 0, memoryPeakBytes: 0, bytesIn: 0, bytesOut: 0 },
        engineBytes: memory.sizeBytes,
      };
    }
    port.postMessage(done);
    // The spent runtime is freed once the answer is on its way (engine.ts `release`).
    if (spent.engine) disposeEngine(spent.engine);
    // After the answer is out, and after any run already waiting (check phase follows poll).
    setImmediate(() => prepareNext(mod));
  });
});
