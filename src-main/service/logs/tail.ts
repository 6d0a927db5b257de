/**
 * `sys.tail(source)` (mdctl's `tail`: `return sys.tail('console')` posted to the runner with
 * `Accept: application/x-ndjson`): what scripts of the org log from now on, as it happens. The
 * runner answers the returned tail by streaming `followLogs` (routes/script-runner.ts); mdctl reads
 * one JSON document per line and reconnects when the stream ends.
 *
 * Sources: `console` — each line a script printed, one document per line, and one `error` line per
 * failed run (its errCode, message and first trace line); `logs` — each run's whole entry.
 * New entries are found by `_id` order (ids grow with time), woken at once by this process's
 * writes (run-log.ts `onLogWritten`) and otherwise every `pollMs`, so another service process's
 * runs on the same data folder show up too. A tail ends after `maxMs` or when aborted.
 */
import { fault } from '../../../src-shared/faults.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { onLogWritten } from './run-log.js';

export const TAIL_SOURCES = ['console', 'logs'] as const;
export type TailSource = (typeof TAIL_SOURCES)[number];
/** How long one tail streams before it ends (mdctl then reconnects). */
export const TAIL_MAX_MS = 10 * 60_000;
export const TAIL_POLL_MS = 500;
const PAGE = 100;

export function tailSource(value: unknown): TailSource {
  const source = value === undefined || value === null ? 'console' : value;
  if (typeof source !== 'string' || !(TAIL_SOURCES as readonly string[]).includes(source)) {
    throw fault('invalidArgument', 'tail', {
      path: 'source',
      reason: `sys.tail takes ${TAIL_SOURCES.map((s) => `'${s}'`).join(' or ')}.`,
    });
  }
  return source as TailSource;
}

export interface FollowOptions {
  source: TailSource;
  signal: AbortSignal;
  pollMs?: number;
  maxMs?: number;
  /** Start after this entry instead of after the newest one (tests). */
  after?: string;
}

/** The documents a tail writes for one log entry. */
export function tailDocuments(source: TailSource, id: string, doc: Doc): Record<string, unknown>[] {
  if (source === 'logs') return [{ _id: id, object: 'log', ...doc }];
  const script = { sid: doc.sid, stp: doc.stp, label: doc.label, log: id };
  const lines = Array.isArray(doc.console) ? (doc.console as { level?: unknown; message?: unknown }[]) : [];
  const out: Record<string, unknown>[] = lines.map((line) => ({
    object: 'console',
    date: doc.end,
    level: line.level,
    message: line.message,
    ...script,
  }));
  const err = doc.err as { errCode?: string; message?: string } | undefined;
  if (err) {
    const frame = Array.isArray(doc.trc) ? (doc.trc[0] as { line?: number } | undefined) : undefined;
    const at = frame?.line !== undefined ? ` (line ${frame.line})` : '';
    out.push({
      object: 'console',
      date: doc.end,
      level: 'error',
      message: `${err.errCode}: ${err.message}${at}`,
      ...script,
    });
  }
  return out;
}

/** The newest entry's `_id`, or undefined when the org has none. */
function newestId(svc: Service, org: Org): string | undefined {
  const def = svc.defs.byName(org.id, 'log');
  if (!def) return undefined;
  const query = parseListQuery({ sort: '{"_id":-1}', limit: '1', paths: ['_id'] }, def);
  return svc.store.list(org.id, def, query).rows[0]?._id;
}

function entriesAfter(svc: Service, org: Org, after: string | undefined): { _id: string; doc: Doc }[] {
  const def = svc.defs.byName(org.id, 'log');
  if (!def) return [];
  const where = after === undefined ? undefined : JSON.stringify({ _id: { $gt: after } });
  const query = parseListQuery({ ...(where ? { where } : {}), sort: '{"_id":1}', limit: String(PAGE) }, def);
  return svc.store.list(org.id, def, query).rows.map((r) => ({ _id: r._id, doc: r.doc }));
}

/** Every new entry of the org as documents of `source`, until `maxMs` has passed or `signal` aborts. */
export async function* followLogs(
  svc: Service,
  org: Org,
  opts: FollowOptions,
): AsyncGenerator<Record<string, unknown>> {
  const pollMs = opts.pollMs ?? TAIL_POLL_MS;
  const endAt = performance.now() + (opts.maxMs ?? TAIL_MAX_MS);
  let last = opts.after ?? newestId(svc, org);
  let wake: (() => void) | undefined;
  const stop = onLogWritten(svc, (orgId) => {
    if (orgId === org.id) wake?.();
  });
  const abort = () => wake?.();
  opts.signal.addEventListener('abort', abort);
  try {
    while (!opts.signal.aborted && performance.now() < endAt) {
      const entries = entriesAfter(svc, org, last);
      for (const entry of entries) {
        last = entry._id;
        for (const doc of tailDocuments(opts.source, entry._id, entry.doc)) yield doc;
      }
      if (entries.length === PAGE) continue;
      const wait = Math.max(0, Math.min(pollMs, endAt - performance.now()));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    stop();
    opts.signal.removeEventListener('abort', abort);
  }
}
