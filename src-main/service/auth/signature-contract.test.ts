import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commandFromUrlPath, signatureKey, signatureMessage } from '../../../src-shared/contracts/signing.js';

/** The test vectors of src-main/service/auth/signature.test.ts (computed there with OpenSSL). */
const API_KEY = 'abcdefghijklmnopqrstuv';
const API_SECRET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01';
const TS = 1700000000000;

const nodeSign = (urlPath: string, method: string): string => {
  const command = commandFromUrlPath(urlPath);
  if (command === null) throw new Error('not signable');
  return createHmac('sha256', signatureKey(API_KEY, API_SECRET))
    .update(signatureMessage(command, method, TS), 'utf8')
    .digest('hex');
};

/**
 * The canonicaliser the console signs with (src-shared/contracts/signing.ts), paired with the
 * service's HMAC, reproduces the published vectors: so console and service cannot drift apart.
 */
describe('shared canonicaliser + node HMAC', () => {
  it('vector 1: GET /demo/v2/accounts/me/', () => {
    expect(commandFromUrlPath('/demo/v2/accounts/me/')).toBe('/accounts/me');
    expect(signatureMessage('/accounts/me', 'get', TS)).toBe('/accounts/me;GET;1700000000000');
    expect(nodeSign('/demo/v2/accounts/me/', 'GET')).toBe(
      '8be1433d17bd68c15451711ec86b9d649c56573ac32e975734938ed798f2f800',
    );
  });

  it('vector 2: POST with doubled slashes and a query string', () => {
    expect(nodeSign('/demo//v2/accounts?limit=5', 'POST')).toBe(
      '9ac99e5604a27f94ef09a422b505c6ad3ab09ffa5e3970eccca433b126e710c6',
    );
  });

  // The canonicaliser's own rules (normalising, prefixes, the HMAC key) are tested once, beside it:
  // src-shared/contracts/signing.test.ts.
});
