/**
 * A QuickJS runtime and context made ready for one run before the run comes (engine.ts): the
 * native functions installed and the prelude evaluated to its `start(contextJson)` function.
 * Compiling the prelude (about 29 kB of JavaScript) was most of what a trivial run cost
 * (docs/SPEED.md, "Triggers"); the sandbox worker prepares the next context while it waits for a
 * run (worker.ts), so a run only starts the prelude with its own context and runs the script.
 *
 * Isolation is unchanged: a prepared context serves exactly one run and is disposed after it; it
 * has run nothing but the prelude, which reads nothing of any org until `start` gives it the
 * run's context. The native functions reach the run through `hooks`, set when the run begins.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from './prelude.js';

/** What the native functions do for the run the context serves (engine.ts sets them). */
export interface RunHooks {
  host(name: string, argsJson: string, asJson: string | null): string;
  log(level: string, text: string): void;
  exit(valueJson: string): void;
}

export interface PreparedEngine {
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
  /** The prelude's `start(contextJson)`, answering the function that invokes the wrapped script. */
  start: QuickJSHandle;
  hooks: RunHooks;
}

const NO_RUN = JSON.stringify({ ok: false, fault: { errCode: 'service.error.script', reason: 'No run.' } });

/** A fresh runtime and context with the prelude compiled; `builtinSource` hands out bundled libraries' text. */
export function prepareEngine(
  mod: QuickJSWASMModule,
  builtinSource?: (name: string) => string | undefined,
): PreparedEngine {
  const rt = mod.newRuntime();
  let ctx: QuickJSContext | undefined;
  try {
    ctx = rt.newContext();
    const vm = ctx;
    const hooks: RunHooks = { host: () => NO_RUN, log: () => undefined, exit: () => undefined };
    const hostFn = vm.newFunction('__host', (nameH, argsH, asH) => {
      const asJson = vm.typeof(asH) === 'string' ? vm.getString(asH) : null;
      return vm.newString(hooks.host(vm.getString(nameH), vm.getString(argsH), asJson));
    });
    const logFn = vm.newFunction('__log', (levelH, textH) => hooks.log(vm.getString(levelH), vm.getString(textH)));
    const exitFn = vm.newFunction('__exit', (valueH) => hooks.exit(vm.getString(valueH)));
    // Module loading (prelude/require.ts): evaluate a library's wrapper under its own file name,
    // and hand out a bundled library's text. Removed from the global object by the prelude.
    const compileFn = vm.newFunction('__compile', (textH, nameH) => {
      const r = vm.evalCode(vm.getString(textH), vm.getString(nameH));
      return r.error ? { error: r.error } : r.value;
    });
    const builtinFn = vm.newFunction('__builtin', (nameH) => {
      const text = builtinSource?.(vm.getString(nameH));
      return text === undefined ? vm.undefined : vm.newString(text);
    });
    vm.setProp(vm.global, '__host', hostFn);
    vm.setProp(vm.global, '__log', logFn);
    vm.setProp(vm.global, '__exit', exitFn);
    vm.setProp(vm.global, '__compile', compileFn);
    vm.setProp(vm.global, '__builtin', builtinFn);
    for (const fn of [hostFn, logFn, exitFn, compileFn, builtinFn]) fn.dispose();
    const prelude = vm.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME);
    if (prelude.error) {
      const err = vm.dump(prelude.error) as unknown;
      prelude.error.dispose();
      throw new Error(`prelude failed: ${JSON.stringify(err)}`);
    }
    return { rt, ctx, start: prelude.value, hooks };
  } catch (e) {
    ctx?.dispose();
    rt.dispose();
    throw e;
  }
}

/** QuickJS's line for the bytes its allocator has handed out (JS_DumpMemoryUsage's table). */
const MEMORY_USED_LINE = /^memory used\s+\d+\s+(\d+)/m;

/**
 * The bytes QuickJS counts as in use by the runtime (its `memory_used_size`). Read from the text
 * table of `dumpMemoryUsage`: `computeMemoryUsage` answers the same figure as an object, but
 * builds it in a second context that QuickJS creates on the runtime's first call, and with one
 * runtime per run that was about a millisecond of every short run (docs/SPEED.md, "Triggers").
 * The object form stays as the fallback should a QuickJS upgrade change the table.
 */
export function memoryUsedBytes(engine: Pick<PreparedEngine, 'rt' | 'ctx'>): number {
  const m = MEMORY_USED_LINE.exec(engine.rt.dumpMemoryUsage());
  if (m) return Number(m[1]);
  const h = engine.rt.computeMemoryUsage();
  const usage = engine.ctx.dump(h) as { memory_used_size?: number };
  h.dispose();
  return usage.memory_used_size ?? 0;
}

/** Frees a prepared engine (after its run, or unused when the worker ends). */
export function disposeEngine(engine: PreparedEngine): void {
  if (engine.start.alive) engine.start.dispose();
  engine.ctx.dispose();
  engine.rt.dispose();
}
