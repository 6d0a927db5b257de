import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { makeFault } from '../../../src-shared/faults.js';
import { sendFault } from './faults-plugin.js';

/**
 * The console's content security policy: only our own origin, no inline scripts, no framing.
 * Sent as a header (not a meta tag) so it also covers the Electron window.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built console at `/console/` (same origin as the API, so the session cookie works). */
export async function consoleStatic(server: FastifyInstance, opts: { dir?: string }): Promise<void> {
  server.get('/', (_request, reply) => reply.redirect('/console/'));
  const dir = opts.dir;
  if (!dir || !existsSync(dir)) {
    server.get('/console/*', (_request, reply) =>
      sendFault(
        reply,
        makeFault('notFound', 'console', { reason: 'The console is not built: run `npm run build` first.' }),
      ),
    );
    return;
  }
  await server.register(fastifyStatic, {
    root: dir,
    prefix: '/console/',
    redirect: true,
    // A source map left in the folder (a development build) is never served: 404 like any absent file.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders: (res) => {
      res.header('Content-Security-Policy', CONSOLE_CSP);
      res.header('X-Frame-Options', 'DENY');
    },
  });
}
