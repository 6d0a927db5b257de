/**
 * Hostile credentials: every authentication header (Service-Client-Key, -Signature, -Timestamp,
 * -Nonce, -Account, Authorization Bearer, cookies, Service-Csrf-Token), fuzzed alone and together.
 * None of them can be forged at random, so a request to a route that needs a principal must always
 * be answered with a 4xx fault — and a write must leave every table as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { signRequest } from '../auth/signatures/signature.js';
import { expectClientFault, fuzzParams, hostileWorld, type HostileWorld } from './fixture.js';

let w: HostileWorld;
let before: string;
beforeAll(async () => {
  w = await hostileWorld();
  before = w.fingerprint();
});
afterAll(async () => {
  expect(w.fingerprint()).toBe(before);
  await w.h.close();
});

/** Header values as an HTTP client can send them: visible ASCII and Latin-1, no CR/LF. */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom('', ' ', 'null', 'undefined', '__proto__', 'toString', '0', '-1', '1e400', "' OR 1=1 --"),
);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url');
const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: n, maxLength: n });
const alnum16 = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
  minLength: 16,
  maxLength: 16,
});

/** A JWT-shaped string: hostile header and claims, a junk signature. */
const jwtish = fc
  .tuple(
    fc.record(
      {
        alg: fc.constantFrom('none', 'PS512', 'RS512', 'HS256', 'ES256'),
        kid: headerText,
        jku: headerText,
        crit: fc.constant(['x']),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        iss: fc.oneof(headerText, fc.constant('')),
        sub: headerText,
        aud: headerText,
        exp: fc.oneof(fc.integer(), fc.double()),
        jti: headerText,
        'service/scp': fc.oneof(fc.constant(['*']), fc.anything()),
        'service/cnt': fc.oneof(fc.integer(), fc.string()),
      },
      { requiredKeys: [] },
    ),
    fc.string({ maxLength: 40 }),
  )
  .map(([h, p, s]) => `${b64(h)}.${b64(p)}.${Buffer.from(s).toString('base64url')}`);

/** A cookie header: sometimes ours, with junk or repeated values. */
const cookieText = fc.oneof(
  headerText.map((v) => `service.sid=${encodeURIComponent(v)}`),
  headerText.map((v) => `service.sid=${v}`),
  fc.constant('service.sid=a; service.sid=b'),
  fc.constant('__proto__=x; constructor=y'),
  headerText,
);

const authHeaders = fc.record(
  {
    'service-client-key': fc.oneof(headerText, fc.constant('CONSOLE'), fc.constant('SIGNING')),
    'service-client-signature': fc.oneof(headerText, hex(64)),
    'service-client-timestamp': fc.oneof(headerText, fc.constant('NOW'), fc.integer().map(String)),
    'service-client-nonce': fc.oneof(headerText, alnum16),
    'service-client-account': headerText,
    authorization: fc.oneof(
      headerText.map((v) => `Bearer ${v}`),
      jwtish.map((v) => `Bearer ${v}`),
      headerText,
    ),
    cookie: cookieText,
    'service-csrf-token': headerText,
  },
  { requiredKeys: [] },
);

/** Replaces placeholders with this world's real app keys and clock, so fuzzing reaches deep checks. */
function materialise(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { host: '127.0.0.1:7788' };
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value
      .replace(/^CONSOLE$/, w.h.consoleAppKey)
      .replace(/^SIGNING$/, w.signing.key)
      .replace(/^NOW$/, String(w.h.clock.now()));
  }
  return out;
}

describe('fuzzed authentication headers', () => {
  it('never authenticate a read of /accounts/me', async () => {
    await fc.assert(
      fc.asyncProperty(authHeaders, async (headers) => {
        const res = await w.h.server.inject({ url: '/demo/v2/accounts/me', headers: materialise(headers) });
        expectClientFault(res, JSON.stringify(headers));
      }),
      fuzzParams(),
    );
  });

  it('never let a write through, and leave no trace', async () => {
    await fc.assert(
      fc.asyncProperty(authHeaders, async (headers) => {
        const res = await w.h.server.inject({
          method: 'POST',
          url: '/demo/v2/c_conversations',
          headers: materialise(headers),
          payload: { c_title: 'forged' },
        });
        expectClientFault(res, JSON.stringify(headers));
      }),
      fuzzParams(),
    );
    expect(w.fingerprint()).toBe(before);
  });

  it('with a real session, a wrong CSRF token still refuses every write', async () => {
    await fc.assert(
      fc.asyncProperty(headerText, async (csrf) => {
        fc.pre(csrf !== w.admin.csrf);
        const res = await w.admin.request(
          'POST',
          '/c_conversations',
          { c_title: 'csrf' },
          { 'service-csrf-token': csrf },
        );
        expectClientFault(res, csrf);
        expect(res.json().errCode).toBe('service.accessDenied.csrfTokenMismatch');
      }),
      fuzzParams(),
    );
  });

  it('a correctly signed request with a fuzzed principal override is refused (the app does not allow it)', async () => {
    await fc.assert(
      fc.asyncProperty(headerText, alnum16, async (account, nonce) => {
        fc.pre(account.trim() !== '');
        const url = '/demo/v2/accounts/me';
        const ts = w.h.clock.now();
        const signature = signRequest({
          apiKey: w.signing.key,
          apiSecret: w.signing.secret,
          url,
          method: 'GET',
          timestampMs: ts,
        });
        const res = await w.h.server.inject({
          url,
          headers: {
            host: '127.0.0.1',
            'service-client-key': w.signing.key,
            'service-client-signature': signature,
            'service-client-timestamp': String(ts),
            'service-client-nonce': nonce,
            'service-client-account': account,
          },
        });
        expectClientFault(res, account);
        // Each run signs the same message, so after the first the signature is a replay.
        expect(res.json().errCode).toMatch(/accessDenied\.(principal|invalidRequestSignature)$/);
        w.h.clock.advance(1); // a fresh timestamp makes a fresh signature for the next run
      }),
      { ...fuzzParams(), numRuns: Math.min(50, fuzzParams().numRuns) },
    );
  });
});

describe('header edge cases', () => {
  it.each([
    ['a repeated Service-Client-Key', { 'service-client-key': ['a', 'b'] }],
    [
      'a repeated signature',
      { 'service-client-key': 'SIGNING', 'service-client-signature': ['a'.repeat(64), 'b'.repeat(64)] },
    ],
    ['a bearer of 20 KB', { authorization: `Bearer ${'a'.repeat(20_000)}` }],
    ['a bearer of three empty parts', { authorization: 'Bearer ..' }],
    ['a JWT with alg none and no signature', { authorization: `Bearer ${b64({ alg: 'none' })}.${b64({ iss: 'x' })}.` }],
    ['a JWT whose header is an array', { authorization: `Bearer ${b64([])}.${b64([])}.x` }],
    ['a JWT whose iss is an object', { authorization: `Bearer ${b64({ alg: 'PS512' })}.${b64({ iss: { a: 1 } })}.x` }],
    ['a cookie header of 8 KB', { cookie: `service.sid=${'x'.repeat(8000)}`, 'service-client-key': 'CONSOLE' }],
    ['a malformed percent-encoded cookie', { cookie: 'service.sid=%E0%A4%A', 'service-client-key': 'CONSOLE' }],
    [
      'a NUL in the timestamp',
      {
        'service-client-key': 'SIGNING',
        'service-client-signature': 'a'.repeat(64),
        'service-client-timestamp': '1\u00002',
        'service-client-nonce': 'a'.repeat(16),
      },
    ],
  ])('%s is a 4xx fault', async (_label, headers) => {
    const h = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v : materialise({ [k]: v })[k]!]),
    );
    let res;
    try {
      res = await w.h.server.inject({ url: '/demo/v2/accounts/me', headers: { host: '127.0.0.1', ...h } });
    } catch (err) {
      // The HTTP client itself refuses some header bytes (NUL): then they never reach the service.
      expect(String(err)).toMatch(/Invalid character|ERR_INVALID_CHAR/);
      return;
    }
    expectClientFault(res, _label);
  });
});
