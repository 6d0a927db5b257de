/**
 * Hostile bytes: invalid UTF-8, NUL bytes, huge and deeply nested JSON, oversized bodies, URLs and
 * headers — in-process (inject) and over a real loopback socket, where Node's HTTP parser sees the
 * bytes first. Every refusal is a 4xx fault and leaves the records as they were.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, listen, MAX_HEADER_BYTES, MAX_URL_LENGTH } from '../server.js';
import { expectClientFault, hostileWorld, type HostileWorld } from './fixture.js';

let w: HostileWorld;
let before: string;
let port: number;
beforeAll(async () => {
  w = await hostileWorld();
  before = w.fingerprint();
  port = await listen(w.h.server, 0);
});
afterAll(async () => {
  expect(w.fingerprint()).toBe(before);
  await w.h.close();
});

/** Posts raw bytes as the logged-in admin. */
function postRaw(payload: Buffer | string, path = '/c_conversations', contentType = 'application/json') {
  return w.admin.request('POST', path, payload, { 'content-type': contentType });
}

describe('request bodies', () => {
  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate half', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['bytes FF FE', [0xff, 0xfe]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses invalid UTF-8 (%s) instead of storing U+FFFD', async (_label, bytes) => {
    const payload = Buffer.concat([Buffer.from('{"c_title":"a'), Buffer.from(bytes), Buffer.from('b"}')]);
    const res = await postRaw(payload);
    expectClientFault(res);
    expect(res.json().errCode).toBe('service.invalidArgument.json');
  });

  it('still accepts valid multi-byte UTF-8 (control for the above)', async () => {
    const res = await postRaw(Buffer.from('{"c_title":"Zoë 🐙 日本"}', 'utf8'), '/c_conversations');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().c_title).toBe('Zoë 🐙 日本');
    expect((await w.admin.delete(`/c_conversations/${res.json()._id}`)).statusCode).toBe(200);
    before = w.fingerprint();
  });

  it.each([
    ['a raw NUL byte inside a string', Buffer.from('{"c_title":"a\u0000b"}')],
    ['a raw NUL byte between tokens', Buffer.from('{"c_title":\u0000"a"}')],
    ['an escaped NUL', Buffer.from('{"c_title":"a\\u0000b"}')],
    ['an empty body', Buffer.alloc(0)],
    ['whitespace only', Buffer.from('   ')],
    ['truncated JSON', Buffer.from('{"c_title":"a"')],
    ['JSON followed by junk', Buffer.from('{"c_title":"a"} x')],
    ['duplicate __proto__ keys', Buffer.from('{"__proto__":{"polluted":1},"__proto__":{}}')],
    ['a UTF-16 body', Buffer.from('{"c_title":"a"}', 'utf16le')],
  ])('refuses %s', async (_label, payload) => {
    expectClientFault(await postRaw(payload));
  });

  it('refuses a body over BODY_LIMIT_BYTES with kRequestTooLarge', async () => {
    const payload = JSON.stringify({ c_title: 'x'.repeat(BODY_LIMIT_BYTES) });
    const res = await postRaw(payload);
    expectClientFault(res);
    expect(res.json()).toMatchObject({ code: 'kRequestTooLarge', status: 413 });
  });

  it('refuses deeply nested JSON just under the size limit without a stack overflow', async () => {
    const depth = Math.floor((BODY_LIMIT_BYTES - 100) / 2);
    for (const payload of [
      `{"c_title":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      `${'{"a":'.repeat(depth / 4)}1${'}'.repeat(depth / 4)}`,
      `{"constructor":${'['.repeat(depth / 2)}${']'.repeat(depth / 2)}}`,
    ]) {
      expectClientFault(await postRaw(payload));
    }
  });

  it('refuses a body that is not JSON', async () => {
    const res = await postRaw('c_title=x', '/c_conversations', 'application/x-www-form-urlencoded');
    expectClientFault(res);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.contentType' });
  });
});

/** A raw HTTP exchange, so nothing between us and the service normalises the bytes. */
function rawHttp(text: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => undefined); // the server may reset after answering
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
      if (!m) return reject(new Error(`no HTTP answer: ${out.slice(0, 200)}`));
      const split = out.indexOf('\r\n\r\n');
      resolve({ status: Number(m[1]), head: out.slice(0, split), body: out.slice(split + 4) });
    });
    socket.end(text);
  });
}

describe('over a real socket', () => {
  it('answers a URL over MAX_URL_LENGTH with kRequestTooLarge, on routes and non-routes alike', async () => {
    for (const path of ['/demo/v2/accounts?where=', '/no/such/route/', '/demo/v2/c_conversations/']) {
      const target = path + 'a'.repeat(MAX_URL_LENGTH);
      const res = await rawHttp(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', code: 'kRequestTooLarge' });
    }
  });

  it.each([
    ['an over-long path parameter', `/demo/v2/c_conversations/${'a'.repeat(300)}`, 413],
    ['an over-long collection name', `/demo/v2/${'c'.repeat(300)}`, 413],
    ['bad percent-encoding in the path', '/demo/v2/c_conversations/%E0%A4%A', 400],
    ['a NUL byte in the path (anonymous: refused before the id is read)', '/demo/v2/c_conversations/%00', 403],
    // Not normalised: `..` is read as a collection name and an id, and an anonymous caller is
    // refused before either is looked up.
    ['a path that climbs out', '/demo/v2/../../etc/passwd', 403],
    ['a path that climbs out above the org', '/../../etc/passwd', 404],
    ['a console path that climbs out', '/console/..%2f..%2fpackage.json', 404],
  ])('answers %s with a fault', async (_label, target, status) => {
    const res = await rawHttp(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(res.status, res.body).toBe(status);
    expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', status });
  });

  it('answers headers beyond MAX_HEADER_BYTES with a fault, not the HTTP parser’s own page', async () => {
    const big = 'x'.repeat(MAX_HEADER_BYTES);
    const res = await rawHttp(`GET /demo/v2/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', code: 'kRequestTooLarge', status: 413 });
  });

  it('answers malformed HTTP with a fault', async () => {
    const res = await rawHttp('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', code: 'kInvalidArgument' });
  });

  it('stamps faults answered before routing with Service-Server-Time from the service clock', async () => {
    const big = 'x'.repeat(MAX_HEADER_BYTES);
    const tooLarge = await rawHttp(`GET /demo/v2/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`);
    const badHttp = await rawHttp('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n');
    for (const res of [tooLarge, badHttp]) {
      expect(res.head).toMatch(new RegExp(`\r\nService-Server-Time: ${w.h.clock.now()}\r\n`, 'i'));
    }
  });

  it('refuses a chunked body (no Content-Length) once it passes BODY_LIMIT_BYTES', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/demo/v2/c_conversations',
          headers: { host: '127.0.0.1', 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (r) => {
          let body = '';
          r.on('data', (d: Buffer) => (body += d.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"c_title":"');
      for (let sent = 0; sent <= BODY_LIMIT_BYTES; sent += chunk.length) req.write(chunk);
      req.end('"}');
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', code: 'kRequestTooLarge' });
  });

  it('refuses a foreign Host (DNS rebinding) before anything else, with a fault', async () => {
    const res = await rawHttp('GET /demo/v2/accounts HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ errCode: 'service.accessDenied.host' });
  });
});
