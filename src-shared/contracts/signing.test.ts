import { describe, expect, it } from 'vitest';
import { commandFromUrlPath, normaliseCommand, signatureKey, signatureMessage } from './signing';

/** The timestamp of the test vectors of src-main/service/auth/signature.test.ts. */
const TS = 1700000000000;

describe('shared canonicaliser', () => {
  it('builds the messages of the test vectors', () => {
    expect(signatureMessage(commandFromUrlPath('/demo/v2/accounts/me/') ?? '', 'get', TS)).toBe(
      '/accounts/me;GET;1700000000000',
    );
    expect(signatureMessage(commandFromUrlPath('/demo//v2/accounts?limit=5') ?? '', 'POST', TS)).toBe(
      '/accounts;POST;1700000000000',
    );
  });

  it('keys the HMAC with apiKey + apiSecret', () => {
    expect(signatureKey('ab', 'cd')).toBe('abcd');
  });

  it.each([
    ['accounts/me', '/accounts/me'],
    ['//accounts///me//', '/accounts/me'],
    ['/accounts?where={"a":1}', '/accounts'],
    ['/accounts#frag', '/accounts'],
    ['', '/'],
  ])('normalises %s → %s', (input, expected) => expect(normaliseCommand(input)).toBe(expected));

  it('has no command outside an org version prefix', () => {
    expect(commandFromUrlPath('/demo/v1/accounts')).toBeNull();
    expect(commandFromUrlPath('/demo')).toBeNull();
    expect(commandFromUrlPath('//demo//v2//accounts')).toBe('/accounts');
  });
});
