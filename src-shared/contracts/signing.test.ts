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

  it('gives the normalised command of any path under /<org>/v2, whatever its slashes, query or fragment', () => {
    const pieces = ['', '/', '//', 'v2', 'demo', 'accounts', 'a?b', '#x', '?', '#', '%2F', 'me'];
    let seed = 7;
    const pick = () => pieces[(seed = (seed * 1103515245 + 12345) % 2147483648) % pieces.length]!;
    for (let i = 0; i < 2000; i++) {
      const rest = Array.from({ length: 1 + (i % 6) }, pick).join('/');
      const url = `/demo/v2/${rest}`;
      const path = url.split(/[?#]/, 1)[0]!;
      expect(commandFromUrlPath(url)).toBe(normaliseCommand(path.split('/').filter(Boolean).slice(2).join('/')));
    }
  });

  it('has no command outside an org version prefix', () => {
    expect(commandFromUrlPath('/demo/v1/accounts')).toBeNull();
    expect(commandFromUrlPath('/demo')).toBeNull();
    expect(commandFromUrlPath('//demo//v2//accounts')).toBe('/accounts');
    expect(commandFromUrlPath('/demo/v2x/accounts')).toBeNull();
    expect(commandFromUrlPath('/demo/v')).toBeNull();
  });

  it('answers paths under any org and version as the segment split does', () => {
    const pieces = ['', 'demo', 'v2', 'v2x', 'v', 'accounts', 'me', '?q=/v2/', '#f'];
    let seed = 11;
    const pick = () => pieces[(seed = (seed * 1103515245 + 12345) % 2147483648) % pieces.length]!;
    for (let i = 0; i < 3000; i++) {
      const url = '/' + Array.from({ length: 1 + (i % 5) }, pick).join('/');
      const segments = url.split(/[?#]/, 1)[0]!.split('/').filter(Boolean);
      const expected = segments.length < 2 || segments[1] !== 'v2' ? null : '/' + segments.slice(2).join('/');
      expect(commandFromUrlPath(url), url).toBe(expected);
    }
  });
});
