/** A request carries exactly one Host header: two are refused with a fault, over a real socket. */
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { listen } from '../server.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('two Host headers', () => {
  function rawHttp(port: number, text: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
        if (!m) return reject(new Error(`no HTTP answer: ${out.slice(0, 200)}`));
        resolve({ status: Number(m[1]), body: out.slice(out.indexOf('\r\n\r\n') + 4) });
      });
      socket.end(text);
    });
  }

  it('refuses a request with two Host headers (over a real socket) with a 400 fault', async () => {
    const port = await listen(h.server, 0);
    for (const hosts of [
      ['127.0.0.1', 'evil.example'],
      ['127.0.0.1', '127.0.0.1'],
      ['localhost', 'LOCALHOST:80'],
    ]) {
      const res = await rawHttp(
        port,
        `GET /_service/info HTTP/1.1\r\nHost: ${hosts[0]}\r\nhOsT: ${hosts[1]}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, hosts.join()).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.host' });
    }
    const one = await rawHttp(port, `GET /_service/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(one.status).not.toBe(400);
  });
});
