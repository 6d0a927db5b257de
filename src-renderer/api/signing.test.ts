import { describe, expect, it } from 'vitest';
import {
  commandFromUrlPath,
  computeSignature,
  curlCommand,
  hmacSha256Hex,
  makeNonce,
  normaliseCommand,
  planSignedRequest,
  sendSignedRequest,
  signatureMessage,
  type SignedRequestInput,
} from './signing';

/** The service's test vectors (src-main/service/auth/signature.test.ts), checked with OpenSSL there. */
const API_KEY = 'abcdefghijklmnopqrstuv';
const API_SECRET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01';
const TS = 1700000000000;

const input = (over: Partial<SignedRequestInput> = {}): SignedRequestInput => ({
  origin: 'http://127.0.0.1:7788',
  org: 'demo',
  method: 'GET',
  path: '/accounts/me/',
  appKey: API_KEY,
  apiSecret: API_SECRET,
  timestampMs: TS,
  nonce: 'abcdEFGH12345678',
  ...over,
});

describe('test vectors (WebCrypto, as in the browser)', () => {
  it('vector 1: GET /demo/v2/accounts/me/', async () => {
    expect(commandFromUrlPath('/demo/v2/accounts/me/')).toBe('/accounts/me');
    expect(signatureMessage('/accounts/me', 'get', TS)).toBe('/accounts/me;GET;1700000000000');
    expect(await computeSignature(API_KEY, API_SECRET, '/accounts/me;GET;1700000000000')).toBe(
      '8be1433d17bd68c15451711ec86b9d649c56573ac32e975734938ed798f2f800',
    );
    const planned = await planSignedRequest(input({ version: 1 }));
    expect(planned.ok && planned.plan.signature).toBe(
      '8be1433d17bd68c15451711ec86b9d649c56573ac32e975734938ed798f2f800',
    );
  });

  it('vector 2: POST with doubled slashes and a query string', async () => {
    expect(commandFromUrlPath('/demo//v2/accounts?limit=5')).toBe('/accounts');
    const planned = await planSignedRequest(input({ method: 'POST', path: '//accounts?limit=5', version: 1 }));
    if (!planned.ok) throw new Error(planned.problem);
    expect(planned.plan.command).toBe('/accounts');
    expect(planned.plan.message).toBe('/accounts;POST;1700000000000');
    expect(planned.plan.signature).toBe('9ac99e5604a27f94ef09a422b505c6ad3ab09ffa5e3970eccca433b126e710c6');
    expect(planned.plan.url).toBe('http://127.0.0.1:7788/demo/v2/accounts?limit=5');
  });

  it('matches RFC 4231 test case 2 (a known HMAC-SHA256 answer)', async () => {
    expect(await hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});

interface Vector {
  version: 1 | 2;
  apiKey: string;
  apiSecret: string;
  method: SignedRequestInput['method'];
  url: string;
  timestampMs: number;
  nonce?: string;
  body?: string;
  expected: { command: string; message: string; signature: string };
}

// Read with node:fs (loaded dynamically: the renderer must not import Node modules statically).
const { readFileSync } = await import('node:fs');
const { vectors } = JSON.parse(
  readFileSync(new URL('../../src-shared/contracts/signing-vectors.json', import.meta.url), 'utf8'),
) as { vectors: Vector[] };

describe('committed test vectors (src-shared/contracts/signing-vectors.json)', () => {
  it.each(vectors.map((v) => [`v${v.version} ${v.method} ${v.url}`, v] as const))('%s', async (_name, v) => {
    const at = v.url.indexOf('/v2');
    const planned = await planSignedRequest({
      origin: 'http://127.0.0.1:7788',
      org: 'demo',
      method: v.method,
      path: v.url.slice(at + 3),
      appKey: v.apiKey,
      apiSecret: v.apiSecret,
      timestampMs: v.timestampMs,
      nonce: v.nonce ?? 'abcdEFGH12345678',
      version: v.version,
      ...(v.body === undefined ? {} : { body: v.body }),
    });
    if (!planned.ok) throw new Error(planned.problem);
    expect(planned.plan.command).toBe(v.expected.command);
    expect(planned.plan.message).toBe(v.expected.message);
    expect(planned.plan.signature).toBe(v.expected.signature);
    expect(planned.plan.headers['Service-Client-Signature-Version']).toBe(v.version === 2 ? '2' : undefined);
  });

  it('signs with version 2 by default', async () => {
    const planned = await planSignedRequest(input());
    expect(planned.ok && planned.plan.version).toBe(2);
  });
});

describe('command normalisation', () => {
  it.each([
    ['accounts/me', '/accounts/me'],
    ['/accounts/me/', '/accounts/me'],
    ['//accounts///me//', '/accounts/me'],
    ['/accounts?where={"a":1}', '/accounts'],
    ['/accounts#frag', '/accounts'],
    ['', '/'],
    ['///', '/'],
  ])('%s → %s', (raw, expected) => expect(normaliseCommand(raw)).toBe(expected));

  it('takes the path after /<org>/v2, or refuses one outside it', () => {
    expect(commandFromUrlPath('/demo/v2')).toBe('/');
    expect(commandFromUrlPath('//demo//v2//accounts')).toBe('/accounts');
    expect(commandFromUrlPath('/demo/accounts')).toBeNull();
  });

  it('signs the percent-encoded path the browser sends', async () => {
    const planned = await planSignedRequest(input({ path: 'c_things/a b' }));
    expect(planned.ok && planned.plan.command).toBe('/c_things/a%20b');
  });

  it('does not let the path leave the org API', async () => {
    expect((await planSignedRequest(input({ path: '../../other/v2/accounts' }))).ok).toBe(false);
    expect((await planSignedRequest(input({ path: 'http://evil.test/x' }))).ok).toBe(false);
  });
});

describe('planSignedRequest', () => {
  it('builds the headers, with the principal override when given', async () => {
    const planned = await planSignedRequest(input({ principal: ' admin@demo.test ' }));
    if (!planned.ok) throw new Error(planned.problem);
    expect(planned.plan.headers).toMatchObject({
      'Service-Client-Key': API_KEY,
      'Service-Client-Signature': planned.plan.signature,
      'Service-Client-Timestamp': String(TS),
      'Service-Client-Nonce': 'abcdEFGH12345678',
      'Service-Client-Account': 'admin@demo.test',
    });
    expect(JSON.stringify(planned.plan)).not.toContain(API_SECRET);
  });

  it('checks the body is JSON and sends it only for methods with a body', async () => {
    expect(await planSignedRequest(input({ method: 'POST', body: '{"a":' }))).toMatchObject({ ok: false });
    const post = await planSignedRequest(input({ method: 'POST', body: '{"a":1}' }));
    expect(post.ok && post.plan.body).toBe('{"a":1}');
    expect(post.ok && post.plan.headers['Content-Type']).toBe('application/json');
    const get = await planSignedRequest(input({ body: '{"a":1}' }));
    expect(get.ok && get.plan.body).toBeUndefined();
  });

  it('asks for what is missing', async () => {
    expect(await planSignedRequest(input({ apiSecret: '' }))).toMatchObject({ ok: false });
    expect(await planSignedRequest(input({ appKey: '' }))).toMatchObject({ ok: false });
    expect(await planSignedRequest(input({ nonce: 'short' }))).toMatchObject({ ok: false });
  });
});

describe('nonce, curl and sending', () => {
  it('makes 16 letters or digits, different each time', () => {
    const a = makeNonce();
    expect(a).toMatch(/^[a-z0-9]{16}$/i);
    expect(makeNonce()).not.toBe(a);
  });

  it('quotes curl arguments for a POSIX shell', async () => {
    const planned = await planSignedRequest(input({ method: 'POST', path: 'accounts', body: `{"name":"O'Hara"}` }));
    if (!planned.ok) throw new Error(planned.problem);
    const curl = curlCommand(planned.plan);
    expect(curl).toContain(`--data-raw '{"name":"O'\\''Hara"}'`);
    expect(curl).toContain(`-H 'Service-Client-Nonce: abcdEFGH12345678'`);
    expect(curl).not.toContain(API_SECRET);
  });

  it('sends without credentials and reads a fault', async () => {
    const planned = await planSignedRequest(input());
    if (!planned.ok) throw new Error(planned.problem);
    let seen: RequestInit | undefined;
    const response = await sendSignedRequest(planned.plan, async (_url, init) => {
      seen = init;
      return new Response(
        JSON.stringify({ object: 'fault', errCode: 'service.accessDenied.invalidRequestSignature' }),
        {
          status: 403,
          headers: { 'Service-Server-Time': '1700000000123' },
        },
      );
    });
    expect(seen?.credentials).toBe('omit');
    expect(response).toMatchObject({
      status: 403,
      errCode: 'service.accessDenied.invalidRequestSignature',
      serverTime: 1700000000123,
    });
  });
});

describe('the console signer and the service agree', () => {
  /** The service's HMAC (node:crypto, as src-main/service/auth/signature.ts computes it). */
  const serviceSignature = async (message: string): Promise<string> => {
    // Loaded dynamically: the renderer must not import Node modules statically (lint), a test may.
    const { createHmac } = await import('node:crypto');
    return createHmac('sha256', API_KEY + API_SECRET)
      .update(message, 'utf8')
      .digest('hex');
  };

  it.each([
    ['GET', '/accounts/me/'],
    ['POST', '//accounts?limit=5'],
    ['DELETE', '/c_things/0123456789abcdef01234567'],
    ['PATCH', '/accounts/caf%C3%A9/'],
  ] as const)('%s %s signs byte-identically', async (method, path) => {
    const planned = await planSignedRequest(input({ method, path }));
    if (!planned.ok) throw new Error(planned.problem);
    expect(planned.plan.signature).toBe(await serviceSignature(planned.plan.message));
    expect(planned.plan.signature).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('extra headers', () => {
  it('are sent with the plan, and never replace what the signer sets', async () => {
    const planned = await planSignedRequest(
      input({
        extraHeaders: { accept: 'application/x-ndjson', 'X-Trace': 't1', 'service-client-nonce': 'forged' },
      }),
    );
    if (!planned.ok) throw new Error(planned.problem);
    const { headers } = planned.plan;
    expect(headers.accept).toBe('application/x-ndjson');
    expect(headers.Accept).toBeUndefined();
    expect(headers['X-Trace']).toBe('t1');
    expect(headers['service-client-nonce']).toBeUndefined();
    expect(headers['Service-Client-Nonce']).toBe('abcdEFGH12345678');
  });
});

describe('response headers', () => {
  it('are kept with the answer', async () => {
    const planned = await planSignedRequest(input());
    if (!planned.ok) throw new Error(planned.problem);
    const response = await sendSignedRequest(
      planned.plan,
      async () =>
        new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1' } }),
    );
    expect(response.headers).toContainEqual(['x-request-id', 'r1']);
    expect(response.headers).toContainEqual(['content-type', 'application/json']);
  });
});
