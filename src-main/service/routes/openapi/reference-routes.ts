import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFault } from '../../../../src-shared/faults.js';
import { CONSOLE_CSP } from '../../http/console-static.js';
import { sendFault } from '../../http/faults-plugin.js';
import type { TypedServer } from '../../http/route-schemas.js';

/** The reference page of the console build (src-renderer/api-reference.html). */
export const REFERENCE_PAGE = 'api-reference.html';

/**
 * The console's policy, except that the console itself may frame the page (its API reference
 * screen does). `connect-src 'self'` keeps the renderer's requests on this service.
 */
export const REFERENCE_CSP = CONSOLE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

/**
 * `GET /_service/openapi.json`: the OpenAPI 3.1 description of every route (install.ts).
 * `GET /_service/docs`: the API reference page, which renders it offline (the console build ships
 * the page and its renderer; docs/API.md).
 */
export function apiReferenceRoutes(consoleDir: string | undefined) {
  return async (server: TypedServer) => {
    server.get('/_service/openapi.json', async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return server.swagger();
    });

    server.get('/_service/docs', async (_request, reply) => {
      const page = consoleDir === undefined ? undefined : await readPage(join(consoleDir, REFERENCE_PAGE));
      if (page === undefined) {
        return sendFault(
          reply,
          makeFault('notFound', 'console', {
            reason: 'The API reference comes with the console build: run `npm run build` first.',
          }),
        );
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', REFERENCE_CSP)
        .header('X-Frame-Options', 'SAMEORIGIN')
        .header('Cache-Control', 'no-cache')
        .send(page);
    });
  };
}

async function readPage(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch {
    return undefined;
  }
}
