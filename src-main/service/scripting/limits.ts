/**
 * Per-run limits of the script sandbox, with the original system's defaults (5 s, 1,000,000
 * operations, 50,000 characters, nesting depth 4). Orgs may override them later; the runner merges
 * overrides over these defaults field by field.
 */
export interface ScriptLimits {
  /** Wall time of one run, ms (interrupt handler inside the engine). */
  timeoutMs: number;
  /** Engine memory one run may hold, bytes: every allocation counts (engine-memory.ts); at most MAX_MEMORY_BYTES. */
  memoryBytes: number;
  /** Engine stack, bytes. Kept well below the WebAssembly stack so overflow is a script error. */
  stackBytes: number;
  /** Host calls per run (driver operations, token calls, `as`, …). */
  maxOperations: number;
  /** Source length in characters. */
  maxScriptChars: number;
  /** Scripts calling scripts: a top-level run has depth 0; a run at depth > maxDepth is refused. */
  maxDepth: number;
  /** JSON bytes of the run's result. */
  maxOutputBytes: number;
  /** Bytes of console output (all lines of one run together). */
  maxConsoleBytes: number;
  /** JSON bytes a script may pass to host calls over the whole run. */
  maxBytesIn: number;
  /** Records fetched per host call while a cursor pages through results. */
  cursorPageSize: number;
}

export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  timeoutMs: 5_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxOperations: 1_000_000,
  maxScriptChars: 50_000,
  maxDepth: 4,
  maxOutputBytes: 1024 * 1024,
  maxConsoleBytes: 256 * 1024,
  maxBytesIn: 16 * 1024 * 1024,
  cursorPageSize: 100,
});

/** Above this the engine's own stack would outgrow the WebAssembly stack and crash the worker. */
export const MAX_STACK_BYTES = 384 * 1024;

/** The most memory any run may be given, whatever an org's override says. */
export const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

/**
 * Hard maximum of a worker's engine memory: the largest run's share plus what the engine holds
 * itself (its data and stack, about 5 MiB) and the first 16 MiB the module starts with.
 */
export const ENGINE_MEMORY_MAX_BYTES = MAX_MEMORY_BYTES + 32 * 1024 * 1024;

export function mergeLimits(...layers: (Partial<ScriptLimits> | undefined)[]): ScriptLimits {
  const out: ScriptLimits = { ...DEFAULT_SCRIPT_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(out) as (keyof ScriptLimits)[]) {
      const v = layer[key];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v;
    }
  }
  out.stackBytes = Math.min(out.stackBytes, MAX_STACK_BYTES);
  out.memoryBytes = Math.min(out.memoryBytes, MAX_MEMORY_BYTES);
  return out;
}
