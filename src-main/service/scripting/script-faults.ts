/**
 * How a script run's failures read as faults: the limit that ended it (`limitFault`), and what
 * the script threw (`errorToFault`) with a trace of the user script's own frames (`buildTrace`).
 */
import {
  FAULT_CATEGORIES,
  makeFault,
  isFaultBody,
  type FaultBody,
  type FaultCategory,
} from '../../../src-shared/faults.js';
import { SCRIPT_FILENAME } from './prelude.js';
import type { ScriptFault } from './protocol.js';

/**
 * Sizes of a script's fault text (issue 38, Low 2): what a script throws is clipped in the worker,
 * before it crosses to the service thread, so a 30 MB error message answers a few kilobytes.
 */
export const MAX_FAULT_MESSAGE = 1000;
export const MAX_FAULT_REASON = 4000;
export const MAX_FAULT_PATH = 200;
export const MAX_FAULT_TRACE = 8000;
/** What is read of one thrown string before it is clipped to the sizes above (stacks are parsed). */
export const MAX_THROWN_TEXT = 64 * 1024;

/** `text` cut to `max` characters, marked when cut (never splits a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The fault with its texts clipped to the sizes above. */
export function boundFault(f: ScriptFault): ScriptFault {
  const out: ScriptFault = { ...f, message: clip(f.message, MAX_FAULT_MESSAGE) };
  if (f.reason !== undefined) out.reason = clip(f.reason, MAX_FAULT_REASON);
  if (f.path !== undefined) out.path = clip(f.path, MAX_FAULT_PATH);
  if (f.trace !== undefined) out.trace = clip(f.trace, MAX_FAULT_TRACE);
  return out;
}

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

/**
 * Turns what the script threw into a fault (§B: "a script error is a fault with a trace"). A host
 * fault keeps its own codes; an error or object the script throws with an `errCode` of the form
 * `service.<category>[.<detail>]` keeps that errCode, with its category's code and status; anything
 * else (a TypeError, `throw new Error(…)`, a syntax error) is `service.invalidArgument.script`
 * (400): the script failed, not the service, so it is never answered as a server error.
 */
export function errorToFault(error: unknown): ScriptFault {
  return boundFault(thrownToFault(error));
}

function thrownToFault(error: unknown): ScriptFault {
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
    // `throw "text"` or `throw {…}` (read as its JSON text in the worker): keep it as the reason.
    let reason: string;
    try {
      reason =
        typeof error === 'string' ? error : typeof e.thrownJson === 'string' ? e.thrownJson : JSON.stringify(error);
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
  for (const raw of clip(stack, MAX_THROWN_TEXT).split('\n')) {
    const m = /^\s*at (?:(.*?) \()?([^():]+):(\d+)(?::\d+)?\)?\s*$/.exec(raw);
    if (!m || m[2] !== SCRIPT_FILENAME) continue;
    const fn = !m[1] || m[1] === '<anonymous>' || m[1] === '<eval>' ? 'main' : m[1];
    frames.push(`\t${fn} ${SCRIPT_FILENAME}:${m[3]}`);
  }
  const head = clip(message ? `${name}: ${message}` : name, MAX_FAULT_MESSAGE);
  return [head, ...frames].join('\n');
}
