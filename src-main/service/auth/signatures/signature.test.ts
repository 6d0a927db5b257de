import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalQuery } from '../../../../src-shared/contracts/signing.js';
import {
  bodySha256,
  commandFromUrl,
  messageFor,
  computeSignature,
  normaliseCommand,
  signatureMessage,
  signaturesMatch,
  signRequest,
} from './signature.js';

/**
 * TEST VECTORS for client authors (docs/signing.md). Check your implementation against these.
 *
 *   apiKey     abcdefghijklmnopqrstuv
 *   apiSecret  0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01   (64 chars)
 *   HMAC key   apiKey + apiSecret (86 chars)
 *
 *   1. GET  /demo/v2/accounts/me/   at 1700000000000
 *      command   /accounts/me
 *      message   /accounts/me;GET;1700000000000
 *      signature 8be1433d17bd68c15451711ec86b9d649c56573ac32e975734938ed798f2f800
 *
 *   2. POST /demo//v2/accounts?limit=5   at 1700000000000
 *      command   /accounts
 *      message   /accounts;POST;1700000000000
 *      signature 9ac99e5604a27f94ef09a422b505c6ad3ab09ffa5e3970eccca433b126e710c6
 *
 * The expected signatures were computed independently with OpenSSL:
 *   printf '%s' '/accounts/me;GET;1700000000000' | openssl dgst -sha256 -hex \
 *     -hmac 'abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01'
 */
const API_KEY = 'abcdefghijklmnopqrstuv';
const API_SECRET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01';
const TS = 1700000000000;

describe('test vectors', () => {
  it('vector 1: GET /demo/v2/accounts/me/', () => {
    expect(API_SECRET).toHaveLength(64);
    expect(commandFromUrl('/demo/v2/accounts/me/')).toBe('/accounts/me');
    expect(signatureMessage('/accounts/me', 'get', TS)).toBe('/accounts/me;GET;1700000000000');
    expect(
      signRequest({
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        url: '/demo/v2/accounts/me/',
        method: 'GET',
        timestampMs: TS,
      }),
    ).toBe('8be1433d17bd68c15451711ec86b9d649c56573ac32e975734938ed798f2f800');
  });

  it('vector 2: POST with doubled slashes and a query string', () => {
    expect(
      signRequest({
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        url: '/demo//v2/accounts?limit=5',
        method: 'POST',
        timestampMs: TS,
      }),
    ).toBe('9ac99e5604a27f94ef09a422b505c6ad3ab09ffa5e3970eccca433b126e710c6');
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
  ])('%s → %s', (input, expected) => expect(normaliseCommand(input)).toBe(expected));

  it('takes the path after /<org>/v2 of a full URL', () => {
    expect(commandFromUrl('/demo/v2')).toBe('/');
    expect(commandFromUrl('/demo/v2/c_conversations/0123?x=/y')).toBe('/c_conversations/0123');
    expect(commandFromUrl('//demo//v2//accounts')).toBe('/accounts');
  });

  it('refuses URLs outside an org version prefix', () => {
    expect(() => commandFromUrl('/demo/v1/accounts')).toThrow(/not a \/<org>\/v2 URL/);
    expect(() => commandFromUrl('/demo')).toThrow();
  });
});

describe('signature', () => {
  it('changes with every signed input, never with the query', () => {
    const base = { apiKey: API_KEY, apiSecret: API_SECRET, url: '/demo/v2/accounts', method: 'GET', timestampMs: TS };
    const sig = signRequest(base);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(signRequest({ ...base, url: '/demo/v2/accounts?limit=1' })).toBe(sig);
    expect(signRequest({ ...base, url: '/demo/v2/accounts/me' })).not.toBe(sig);
    expect(signRequest({ ...base, method: 'POST' })).not.toBe(sig);
    expect(signRequest({ ...base, timestampMs: TS + 1 })).not.toBe(sig);
    expect(signRequest({ ...base, apiSecret: API_SECRET.replace('0', '1') })).not.toBe(sig);
    expect(signRequest({ ...base, apiKey: API_KEY.toUpperCase() })).not.toBe(sig);
  });

  it('keys the HMAC with apiKey + apiSecret concatenated', () => {
    const msg = signatureMessage('/x', 'GET', 1);
    expect(computeSignature('ab', 'cd', msg)).toBe(computeSignature('a', 'bcd', msg));
  });

  it('compares digests regardless of hex letter case, and rejects any other digest', () => {
    const sig = computeSignature(API_KEY, API_SECRET, 'm');
    expect(signaturesMatch(sig, sig)).toBe(true);
    expect(signaturesMatch(sig, sig.toUpperCase())).toBe(true);
    const flipped = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
    expect(signaturesMatch(sig, flipped)).toBe(false);
    expect(signaturesMatch(sig, sig.slice(0, 62))).toBe(false);
  });
});

interface Vector {
  note: string;
  version: 1 | 2;
  apiKey: string;
  apiSecret: string;
  method: string;
  url: string;
  timestampMs: number;
  nonce?: string;
  body?: string;
  expected: { command: string; message: string; signature: string; canonicalQuery?: string; bodySha256?: string };
}

describe('committed test vectors (src-shared/contracts/signing-vectors.json)', () => {
  const { vectors } = JSON.parse(
    readFileSync(new URL('../../../../src-shared/contracts/signing-vectors.json', import.meta.url), 'utf8'),
  ) as { vectors: Vector[] };

  it('covers both versions', () => {
    expect(new Set(vectors.map((v) => v.version))).toEqual(new Set([1, 2]));
  });

  it.each(vectors.map((v) => [`v${v.version} ${v.method} ${v.url}`, v] as const))('%s', (_name, v) => {
    expect(commandFromUrl(v.url)).toBe(v.expected.command);
    if (v.version === 2) {
      expect(canonicalQuery(v.url)).toBe(v.expected.canonicalQuery);
      expect(bodySha256(v.body)).toBe(v.expected.bodySha256);
    }
    expect(messageFor(v.version, { ...v, nonce: v.nonce ?? '' })).toBe(v.expected.message);
    expect(
      signRequest({
        apiKey: v.apiKey,
        apiSecret: v.apiSecret,
        url: v.url,
        method: v.method,
        timestampMs: v.timestampMs,
        version: v.version,
        nonce: v.nonce ?? '',
        ...(v.body === undefined ? {} : { body: v.body }),
      }),
    ).toBe(v.expected.signature);
  });

  it('refuses to canonicalise a query that is not percent-encoded UTF-8', () => {
    expect(canonicalQuery('/demo/v2/x?a=%E9')).toBeNull();
    expect(canonicalQuery('/demo/v2/x?a=%zz')).toBeNull();
  });
});
