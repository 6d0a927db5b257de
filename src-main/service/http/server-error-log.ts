import { FaultError } from '../../../src-shared/faults.js';

/** Where a 5xx cause goes: one JSON line per fault. Tests pass their own sink. */
export type ErrorLogSink = (line: string) => void;

export const stderrSink: ErrorLogSink = (line) => process.stderr.write(line + '\n');

/**
 * Every 500 must be traceable: the fault carries `requestId`, and this line carries the same id
 * with the cause. Only the error itself and the method and path are written — never headers, query
 * strings or bodies, which may hold passwords, tokens or signatures.
 */
export function logServerError(
  sink: ErrorLogSink,
  nowMs: number,
  request: { readonly method: string; readonly url: string },
  requestId: string,
  error: unknown,
): void {
  const e = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  const path = request.url.split('?')[0];
  // A fault the service chose to answer (501 not implemented, 504 timed out) is worth a line but is
  // not a bug: a warning, so an operator grepping for errors finds only the unexpected ones.
  const deliberate = error instanceof FaultError;
  sink(
    JSON.stringify({
      level: deliberate ? 'warn' : 'error',
      time: new Date(nowMs).toISOString(),
      msg: deliberate ? 'fault answered' : 'unexpected error',
      requestId,
      method: request.method,
      path,
      err: { name: e.name, message: e.message, code: e.code, stack: e.stack },
    }),
  );
}
