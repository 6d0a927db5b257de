/**
 * Syntax check for scripts being saved: compiles (never runs) the source inside QuickJS on the
 * calling thread. Compiling is bounded by the script size limit and an interrupt deadline, so it
 * is safe on the service thread. Line numbers match the editor's (the wrapper shares line 1).
 */
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { DEFAULT_SCRIPT_LIMITS } from './limits.js';
import { SCRIPT_FILENAME, SCRIPT_WRAPPER_HEAD, SCRIPT_WRAPPER_TAIL } from './prelude.js';

export type SyntaxCheck = { ok: true } | { ok: false; line: number; column: number; message: string };

let modulePromise: Promise<QuickJSWASMModule> | undefined;
let loaded: QuickJSWASMModule | undefined;

/**
 * Loads the engine for `checkSyntaxSync` (instantiating WebAssembly is asynchronous). The server
 * awaits this while it starts, so checks on the write path, which are synchronous, find it ready.
 */
export async function loadSyntaxChecker(): Promise<void> {
  modulePromise ??= newQuickJSWASMModuleFromVariant(releaseSync);
  loaded = await modulePromise;
}

export async function checkSyntax(
  source: string,
  maxChars = DEFAULT_SCRIPT_LIMITS.maxScriptChars,
): Promise<SyntaxCheck> {
  await loadSyntaxChecker();
  // Loaded just above, so never null here.
  return checkSyntaxSync(source, maxChars) ?? { ok: false, line: 1, column: 1, message: 'The checker did not load.' };
}

/** `checkSyntax` without the wait; null when the engine is not loaded yet (see `loadSyntaxChecker`). */
export function checkSyntaxSync(source: string, maxChars = DEFAULT_SCRIPT_LIMITS.maxScriptChars): SyntaxCheck | null {
  if (source.length > maxChars) {
    return {
      ok: false,
      line: 1,
      column: 1,
      message: `The script has ${source.length} characters; the limit is ${maxChars}.`,
    };
  }
  if (!loaded) return null;
  const rt = loaded.newRuntime();
  const deadline = performance.now() + 2000;
  rt.setInterruptHandler(() => performance.now() > deadline);
  rt.setMemoryLimit(DEFAULT_SCRIPT_LIMITS.memoryBytes);
  rt.setMaxStackSize(DEFAULT_SCRIPT_LIMITS.stackBytes);
  const ctx = rt.newContext();
  try {
    const r = ctx.evalCode(SCRIPT_WRAPPER_HEAD + source + SCRIPT_WRAPPER_TAIL, SCRIPT_FILENAME, { compileOnly: true });
    if (!r.error) {
      r.value.dispose();
      return { ok: true };
    }
    const e = ctx.dump(r.error) as { name?: string; message?: string; stack?: string; lineNumber?: number };
    r.error.dispose();
    const m = /Script:(\d+)(?::(\d+))?/.exec(e.stack ?? '');
    const line = m ? Number(m[1]) : (e.lineNumber ?? 1);
    let column = m?.[2] ? Number(m[2]) : 1;
    if (line === 1) column = Math.max(1, column - SCRIPT_WRAPPER_HEAD.length);
    return { ok: false, line, column, message: `${e.name ?? 'SyntaxError'}: ${e.message ?? 'invalid script'}` };
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}
