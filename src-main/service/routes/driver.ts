import { Readable } from 'node:stream';
import { FaultError, makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { collectItems, driverAnswer, runDriverOperation } from '../driver/driver.js';
import { requireCaller } from '../http/context.js';
import { toFault } from '../http/faults-plugin.js';
import { ANY_BODY, pathParams, type TypedServer } from '../http/route-schemas.js';

export const NDJSON = 'application/x-ndjson';

/**
 * The driver API (docs/driver.md): `POST /<org>/v2/<object>/db/<operation>`, the options
 * in the JSON body. Answers the list envelope / `{object:"result"}` / the record; with
 * `Accept: application/x-ndjson`, `cursor` and `bulk` stream one item per line, pulled from the
 * domain's iterator as the socket drains (constant memory). A fault after the first line ends the
 * stream as its last line. An unknown operation is `invalidArgument.operation`: the route exists,
 * its argument is wrong (the spec's operation table is closed).
 */
export function driverRoutes(svc: Service) {
  return async (server: TypedServer) => {
    const schema = { params: pathParams('object', 'operation'), body: ANY_BODY };
    server.post('/:object/db/:operation', { schema }, async (request, reply) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const stream = String(request.headers.accept ?? '').includes(NDJSON);
      const result = await runDriverOperation(
        svc,
        org,
        caller,
        request.params.object,
        request.params.operation,
        request.body,
        { stream, tokenRoles: Array.isArray(request.ctx.claims?.['service/rls']) },
      );
      if (result.kind !== 'stream') return driverAnswer(result);
      if (!stream) return { object: 'list', data: await collectItems(result.items), hasMore: false };
      return reply.type(`${NDJSON}; charset=utf-8`).send(Readable.from(ndjsonLines(result.items)));
    });
  };
}

/** One JSON line per item; a fault after the first line is the stream's last line. */
export async function* ndjsonLines(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  try {
    for await (const item of items) yield `${JSON.stringify(item)}\n`;
  } catch (e) {
    // The status line is long sent: the fault is the stream's last line (clients read it there).
    const body = e instanceof FaultError ? e.fault : toFault(e);
    yield `${JSON.stringify(body ?? makeFault('error'))}\n`;
  }
}
