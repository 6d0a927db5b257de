/**
 * Every script run leaves a log entry (issue 41): runner, route, trigger and job runs alike, written
 * by `runScriptFor` (scripting/script-host.ts) once the run ends. An entry says when, which script,
 * what kind of run, as whom and for whom, how long, the outcome (a short summary of the result, or
 * the fault with its trace) and what the script printed with `console.*` — each part bounded, so a
 * chatty or hostile script cannot make the log table grow faster than a fixed amount per run.
 * Entries are the built-in `log` records (objects/log-def.ts), written here and nowhere else.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { LogScriptType } from '../objects/log-def.js';
import { systemInsert } from '../objects/system-writes.js';

/** Console lines kept per run (the original keeps 100 data items per logger call). */
export const MAX_LOG_CONSOLE_LINES = 100;
/** Characters kept of one console line. */
export const MAX_LOG_LINE_CHARS = 1000;
/** Characters kept of a run's console output in all. */
export const MAX_LOG_CONSOLE_CHARS = 32 * 1024;
/** Characters kept of the result's JSON. */
export const MAX_LOG_RESULT_CHARS = 1000;
/** Trace frames kept. */
export const MAX_LOG_FRAMES = 50;

/** What kind of run it was and for whom; the parts a trigger or a job adds are optional. */
export interface RunLogMeta {
  type: LogScriptType;
  /** The script record's `_id` (absent for the ad-hoc runner). */
  scriptId?: string;
  label?: string;
  /** The account the script ran as ('' or absent: anonymous). */
  principalId?: string;
  /** The account that caused the run, when the script ran as someone else. */
  originalId?: string;
  requestId?: string;
  /** Trigger runs: the event, the object type and the record written. */
  event?: string;
  object?: string;
  target?: string;
  /** A library's decorated handler (`Class.method`). */
  resource?: string;
  /** Route runs: the path requested. */
  path?: string;
}

/** A run's outcome as the runner answers it (scripting/run-types.ts RunResult fits this shape). */
export interface RunOutcome {
  ok: boolean;
  value?: unknown;
  cursor?: { object: string };
  fault?: {
    errCode: string;
    code: string;
    status: number;
    message: string;
    reason?: string;
    path?: string;
    trace?: string;
  };
  logs: readonly { level: string; message: string }[];
  stats: { elapsedMs: number; operations: number; bytesIn: number; bytesOut: number; memoryPeakBytes: number };
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`);
const OBJECT_ID = /^[0-9a-f]{24}$/;
const id = (value: string | undefined) => (value !== undefined && OBJECT_ID.test(value) ? value : undefined);

/** The console lines kept, and whether some were cut. */
export function boundedConsole(lines: RunOutcome['logs']): { kept: Json[]; truncated: boolean } {
  const kept: Json[] = [];
  let chars = 0;
  let truncated = lines.length > MAX_LOG_CONSOLE_LINES;
  for (const line of lines.slice(0, MAX_LOG_CONSOLE_LINES)) {
    const message = clip(String(line.message), MAX_LOG_LINE_CHARS);
    if (message.length < String(line.message).length) truncated = true;
    if (chars + message.length > MAX_LOG_CONSOLE_CHARS) {
      truncated = true;
      break;
    }
    chars += message.length;
    kept.push({ level: String(line.level).slice(0, 8), message });
  }
  return { kept, truncated };
}

/** The trace's frames (`\t<function> Script:<line>`, script-faults.ts buildTrace) as `{function, line}`. */
export function traceFrames(trace: string | undefined): Json[] {
  if (!trace) return [];
  const frames: Json[] = [];
  for (const raw of trace.split('\n')) {
    const m = /^\t(.{1,200}) Script:(\d{1,9})$/.exec(raw);
    if (m) frames.push({ function: m[1] ?? 'main', line: Number(m[2]) });
    if (frames.length >= MAX_LOG_FRAMES) break;
  }
  return frames;
}

function resultSummary(outcome: RunOutcome): string | undefined {
  if (!outcome.ok) return undefined;
  if (outcome.cursor) return `cursor of ${outcome.cursor.object}`;
  try {
    const text = JSON.stringify(outcome.value ?? null);
    return clip(text ?? 'null', MAX_LOG_RESULT_CHARS);
  } catch {
    return undefined;
  }
}

/** The entry's document, every part bounded. */
export function logDocument(meta: RunLogMeta, begin: number, end: number, outcome: RunOutcome): Record<string, Json> {
  const { kept, truncated } = boundedConsole(outcome.logs);
  const fault = outcome.ok ? undefined : outcome.fault;
  const dat: Record<string, Json> = {};
  for (const key of ['event', 'object', 'target', 'resource', 'path'] as const) {
    const value = meta[key];
    if (value !== undefined && value !== '') dat[key] = clip(value, key === 'path' ? 512 : 300);
  }
  const result = resultSummary(outcome);
  if (result !== undefined) dat.result = result;
  const doc: Record<string, Json> = {
    beg: new Date(begin).toISOString(),
    end: new Date(end).toISOString(),
    ms: Math.max(0, Math.round(outcome.stats.elapsedMs)),
    src: 'script',
    lvl: fault ? 'error' : 'info',
    sts: fault ? fault.status : 200,
    stp: meta.type,
    ops: outcome.stats.operations,
    in: outcome.stats.bytesIn,
    out: outcome.stats.bytesOut,
    mem: outcome.stats.memoryPeakBytes,
  };
  const principal = id(meta.principalId);
  if (principal) doc.pid = principal;
  const original = id(meta.originalId) ?? principal;
  if (original) doc.oid = original;
  const script = id(meta.scriptId);
  if (script) doc.sid = script;
  if (meta.label) doc.label = clip(meta.label, 200);
  if (meta.requestId) doc.req = clip(meta.requestId, 64);
  if (fault) {
    doc.err = {
      errCode: clip(fault.errCode, 200),
      code: clip(fault.code, 100),
      status: fault.status,
      message: clip(fault.message, 1000),
      ...(fault.reason !== undefined ? { reason: clip(fault.reason, 4000) } : {}),
      ...(fault.path !== undefined ? { path: clip(fault.path, 200) } : {}),
      ...(fault.trace !== undefined ? { trace: clip(fault.trace, 8000) } : {}),
    };
    const frames = traceFrames(fault.trace);
    if (frames.length > 0) doc.trc = frames;
  }
  if (Object.keys(dat).length > 0) doc.dat = dat;
  if (kept.length > 0) doc.console = kept;
  if (truncated) doc.truncated = true;
  return doc;
}

/** Listeners told of each entry this process writes (the live tail wakes on them, logs/tail.ts). */
const listeners = new WeakMap<Service, Set<(orgId: number) => void>>();

export function onLogWritten(svc: Service, listener: (orgId: number) => void): () => void {
  let set = listeners.get(svc);
  if (!set) listeners.set(svc, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Writes a run's entry. Never throws: a log that cannot be written (the database busy with another
 * process's long write, an org deleted meanwhile) must not turn a run's answer into a failure.
 */
export function writeRunLog(
  svc: Service,
  org: Org,
  meta: RunLogMeta,
  begin: number,
  outcome: RunOutcome,
): StoredRecord | undefined {
  try {
    const def = svc.defs.byName(org.id, 'log');
    if (!def) return undefined;
    const doc = logDocument(meta, begin, svc.clock.now(), outcome);
    const record = systemInsert(svc.store, 'logEntry', org.id, def, doc, { uncached: true });
    for (const listener of listeners.get(svc) ?? []) listener(org.id);
    return record;
  } catch {
    return undefined;
  }
}
