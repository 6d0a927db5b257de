import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { runDriverOperation } from '../driver/driver.js';
import type { ReturnedCursor } from '../scripting/runner.js';
import { NDJSON, ndjsonLines } from './driver.js';

/**
 * A cursor a script returned, answered "like `cursor`" (docs/scripting.md, docs/driver.md): with
 * `Accept: application/x-ndjson` one raw record per line, pulled as the socket drains (constant
 * memory, a fault ends the stream as its last line); otherwise the list envelope of one page with
 * `hasMore`. First the records the cursor had fetched but not handed out, then the rest of its
 * query, run after the sandbox is done as the run's principal through the driver (the same access
 * checks as the script's own calls). `extra` (the captured console output) joins the envelope.
 */
export async function answerCursor(
  svc: Service,
  org: Org,
  caller: Caller,
  cursor: ReturnedCursor,
  request: FastifyRequest,
  reply: FastifyReply,
  extra: Record<string, unknown> = {},
): Promise<unknown> {
  const stream = String(request.headers.accept ?? '').includes(NDJSON);
  const context = { stream, ...(cursor.after ? { after: cursor.after } : {}) };
  const rest = cursor.options
    ? await runDriverOperation(svc, org, caller, cursor.object, 'cursor', cursor.options, context)
    : undefined;
  if (stream) {
    const items = rest?.kind === 'stream' ? rest.items : undefined;
    return reply.type(`${NDJSON}; charset=utf-8`).send(Readable.from(ndjsonLines(concat(cursor.buffered, items))));
  }
  const page = rest?.kind === 'list' ? rest : { data: [], hasMore: false };
  return { object: 'list', data: [...cursor.buffered, ...page.data], hasMore: page.hasMore, ...extra };
}

async function* concat(first: unknown[], then: AsyncIterable<unknown> | undefined): AsyncGenerator<unknown> {
  yield* first;
  if (then) yield* then;
}
