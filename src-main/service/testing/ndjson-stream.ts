/**
 * Reads the first lines of an NDJSON stream that does not end by itself (the runner streaming a
 * returned `sys.tail`): over a loopback socket, since an injected request waits for the end. The
 * harness's server listens on 127.0.0.1 on a free port the first time.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Harness, TestClient } from './harness.js';

export interface StreamOptions {
  /** Lines to read before hanging up. */
  count: number;
  /** Called (one at a time, at most `pokes` times) until the lines came: makes them appear. */
  poke: (i: number) => Promise<void>;
  pokes?: number;
}

export async function firstNdjsonLines(
  h: Harness,
  client: TestClient,
  path: string,
  body: unknown,
  opts: StreamOptions,
): Promise<{ status: number; contentType: string; lines: Record<string, unknown>[] }> {
  if (!h.server.server.listening) await h.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.server.server.address() as AddressInfo;
  const lines: Record<string, unknown>[] = [];
  let status = 0;
  let contentType = '';
  const got = new Promise<void>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/${h.org}/v2${path}`,
        headers: {
          accept: 'application/x-ndjson',
          'content-type': 'application/json',
          'service-client-key': h.consoleAppKey,
          'service-csrf-token': client.csrf ?? '',
          cookie: client.cookieHeader(),
        },
      },
      (res) => {
        status = res.statusCode ?? 0;
        contentType = String(res.headers['content-type'] ?? '');
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
            lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
            buffer = buffer.slice(nl + 1);
          }
          if (lines.length >= opts.count) {
            req.destroy();
            resolve();
          }
        });
        res.on('end', () => resolve());
        res.on('error', () => undefined);
      },
    );
    req.on('error', (e) => (lines.length >= opts.count ? resolve() : reject(e)));
    req.end(JSON.stringify(body));
  });
  let done = false;
  void got.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < (opts.pokes ?? 50) && !done; i++) {
    await opts.poke(i);
    await new Promise((r) => setTimeout(r, 20));
  }
  await got;
  return { status, contentType, lines };
}
