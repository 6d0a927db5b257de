import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ReturnedCursor } from '../scripting/protocol.js';
import { followLogs, tailSource } from '../logs/tail.js';
import { NDJSON, ndjsonLines } from './driver.js';

/** A cursor the sandbox's `sys.tail(source)` returned (a `logs` cursor carrying `tail`). */
export function isTail(cursor: ReturnedCursor): boolean {
  return cursor.object === 'logs' && cursor.options !== null && 'tail' in cursor.options;
}

/**
 * Streams a returned tail (logs/tail.ts) as NDJSON until the client goes away or the tail's time is
 * up (mdctl then reconnects). The runner is for org administrators only, and so is every log.
 */
export function answerTail(
  svc: Service,
  org: Org,
  cursor: ReturnedCursor,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const source = tailSource(cursor.options?.tail);
  if (!String(request.headers.accept ?? '').includes(NDJSON)) {
    throw fault('invalidArgument', 'tail', {
      reason: `sys.tail streams what scripts log: send Accept: ${NDJSON} (as mdctl tail does).`,
    });
  }
  const aborted = new AbortController();
  request.raw.once('close', () => aborted.abort());
  const items = followLogs(svc, org, { source, signal: aborted.signal });
  return reply.type(`${NDJSON}; charset=utf-8`).send(Readable.from(ndjsonLines(items)));
}
