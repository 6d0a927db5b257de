import type { FastifyRequest } from 'fastify';

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
  request: FastifyRequest,
  requestId: string,
  error: unknown,
): void {
  const e = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  const path = request.url.split('?')[0];
  sink(
    JSON.stringify({
      level: 'error',
      time: new Date(nowMs).toISOString(),
      msg: 'unexpected error',
      requestId,
      method: request.method,
      path,
      err: { name: e.name, message: e.message, code: e.code, stack: e.stack },
    }),
  );
}
