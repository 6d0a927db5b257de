/**
 * Pure readers of what a script run answers: the fault's `trace` (`"Error: msg\n\tmain Script:8"`),
 * the `Service-Sandbox-Stats` header, the captured console output, and the JSON arguments the user
 * typed. Trust boundary: all of it is service or user text; anything malformed reads as absent.
 */

export interface TraceFrame {
  /** The function the frame is in; `main` is the script's top level. */
  fn: string;
  line: number;
  /** The frame's text as the service wrote it. */
  text: string;
}

export interface ParsedTrace {
  /** The first line (`Error: msg`). */
  head: string;
  frames: TraceFrame[];
}

const FRAME = /^\s*(?:at\s+)?([^\s]*)\s*\(?Script:(\d{1,7})(?::\d+)?\)?\s*$/;

/**
 * The trace's head and frames. With `lines` (the script's line count as the editor shows it),
 * frames past it are dropped: they are the console's own wrapper (`withPrincipal`), not the script.
 */
export function parseTrace(trace: unknown, scriptLines = Infinity): ParsedTrace | null {
  if (typeof trace !== 'string' || trace.trim() === '') return null;
  const lines = trace.split(/\r?\n/);
  const frames: TraceFrame[] = [];
  const head: string[] = [];
  for (const raw of lines) {
    const m = FRAME.exec(raw);
    const line = m ? Number(m[2]) : NaN;
    if (m && line >= 1 && line <= scriptLines)
      frames.push({ fn: m[1] === '' ? 'main' : (m[1] ?? 'main'), line, text: raw.trim() });
    else if (frames.length === 0 && !m && raw.trim() !== '') head.push(raw.trim());
  }
  return { head: head.join(' '), frames };
}

/** The line to mark in the editor: the innermost frame of the script. */
export function faultLine(trace: unknown, lines = Infinity): number | null {
  return parseTrace(trace, lines)?.frames[0]?.line ?? null;
}

/** The number of lines of a script as the editor counts them. */
export function lineCount(script: string): number {
  return script.split('\n').length;
}

export interface SandboxStats {
  elapsedMs?: number;
  cpuMs?: number;
  operations?: number;
  memoryPeakBytes?: number;
  bytesIn?: number;
  bytesOut?: number;
  callouts?: number;
}

const STAT_KEYS = ['elapsedMs', 'cpuMs', 'operations', 'memoryPeakBytes', 'bytesIn', 'bytesOut', 'callouts'] as const;

/** The stats header as numbers; unknown keys and non-numbers are dropped, a broken header is null. */
export function parseStats(header: string | null | undefined): SandboxStats | null {
  if (header === null || header === undefined || header.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const stats: SandboxStats = {};
  for (const key of STAT_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) stats[key] = value;
  }
  return Object.keys(stats).length === 0 ? null : stats;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The stats as label/value rows, in a fixed order. */
export function statRows(stats: SandboxStats): { key: string; label: string; value: string }[] {
  const rows: { key: string; label: string; value: string }[] = [];
  const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
  if (stats.elapsedMs !== undefined) rows.push({ key: 'elapsedMs', label: 'Elapsed', value: ms(stats.elapsedMs) });
  if (stats.cpuMs !== undefined) rows.push({ key: 'cpuMs', label: 'CPU', value: ms(stats.cpuMs) });
  if (stats.operations !== undefined)
    rows.push({ key: 'operations', label: 'Operations', value: String(stats.operations) });
  if (stats.memoryPeakBytes !== undefined)
    rows.push({ key: 'memoryPeakBytes', label: 'Memory peak', value: formatBytes(stats.memoryPeakBytes) });
  if (stats.bytesIn !== undefined) rows.push({ key: 'bytesIn', label: 'Bytes in', value: formatBytes(stats.bytesIn) });
  if (stats.bytesOut !== undefined)
    rows.push({ key: 'bytesOut', label: 'Bytes out', value: formatBytes(stats.bytesOut) });
  if (stats.callouts !== undefined) rows.push({ key: 'callouts', label: 'Callouts', value: String(stats.callouts) });
  return rows;
}

export interface ConsoleLine {
  level: string;
  message: string;
}

/** Captured console output, whether sent as `[{level, message}]` or as plain strings. */
export function parseLogs(logs: unknown): ConsoleLine[] {
  if (!Array.isArray(logs)) return [];
  const out: ConsoleLine[] = [];
  for (const entry of logs.slice(0, 5000)) {
    if (typeof entry === 'string') out.push({ level: 'log', message: entry });
    else if (typeof entry === 'object' && entry !== null) {
      const { level, message } = entry as { level?: unknown; message?: unknown };
      out.push({
        level: typeof level === 'string' ? level : 'log',
        message: typeof message === 'string' ? message : JSON.stringify(message ?? entry),
      });
    }
  }
  return out;
}

export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** The arguments box: empty is `{}`; otherwise it must be JSON. */
export function checkArguments(text: string): ArgumentsCheck {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'Not JSON.' };
  }
}

/**
 * Runs the script as another principal through `script.as` (administrators only, §B). The wrapper
 * sits on the script's first line so the trace's line numbers still match the editor.
 */
export function withPrincipal(script: string, principal: string): string {
  const who = principal.trim();
  if (who === '') return script;
  return `return script.as(${JSON.stringify(who)}, {}, function () { ${script}\n});`;
}

/**
 * The value a run answered: `{object:"result", data}` and `{object:"list", data}` carry it in
 * `data`; a plain object the script returned comes back as itself (§B).
 */
export function runValueOf(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { object, data } = body as { object?: unknown; data?: unknown };
    if ((object === 'result' || object === 'list') && 'data' in body) return data;
  }
  return body;
}
