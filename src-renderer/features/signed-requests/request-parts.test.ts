import { describe, expect, it } from 'vitest';
import { checkHeaders, joinPath, splitPath } from './request-parts';

describe('query rows', () => {
  it('splits a path into its path and decoded rows', () => {
    expect(splitPath('/accounts?limit=5&where=%7B%22a%22%3A1%7D&flag')).toEqual({
      path: '/accounts',
      params: [
        { name: 'limit', value: '5' },
        { name: 'where', value: '{"a":1}' },
        { name: 'flag', value: '' },
      ],
    });
    expect(splitPath('/accounts/me')).toEqual({ path: '/accounts/me', params: [] });
  });

  it('joins rows back, encoded, leaving out rows without a name', () => {
    const params = [
      { name: 'where', value: '{"name.last":{"$regex":"/^Sm/"}}' },
      { name: '', value: 'typed half' },
      { name: 'q', value: 'a&b c' },
    ];
    const joined = joinPath('/accounts', params);
    expect(joined).toBe('/accounts?where=%7B%22name.last%22%3A%7B%22%24regex%22%3A%22%2F%5ESm%2F%22%7D%7D&q=a%26b%20c');
    expect(splitPath(joined).params).toEqual([params[0], params[2]]);
    expect(joinPath('/accounts', [])).toBe('/accounts');
    // A query still in the path box (being typed) is kept, the rows after it.
    expect(joinPath('/accounts?limit=5', [{ name: 'skip', value: '5' }])).toBe('/accounts?limit=5&skip=5');
    expect(joinPath('/accounts?', [{ name: 'skip', value: '5' }])).toBe('/accounts?skip=5');
  });

  it('keeps malformed percent-encoding as typed instead of dropping it', () => {
    expect(splitPath('/x?a=%E0%A4%A').params).toEqual([{ name: 'a', value: '%E0%A4%A' }]);
  });
});

describe('checkHeaders', () => {
  it('answers the headers to send; blank rows are ignored', () => {
    expect(
      checkHeaders([
        { name: 'Accept', value: 'application/x-ndjson ' },
        { name: '', value: '' },
        { name: 'X-Trace', value: 'abc' },
      ]),
    ).toEqual({ ok: true, headers: { Accept: 'application/x-ndjson', 'X-Trace': 'abc' } });
  });

  it('refuses what would break the signature, what a browser drops, and malformed rows', () => {
    const problem = (name: string, value = 'v') => {
      const check = checkHeaders([{ name, value }]);
      return check.ok ? undefined : check.problem;
    };
    expect(problem('service-client-signature')).toContain('set by the signer');
    expect(problem('Service-Client-Account')).toContain('set by the signer');
    expect(problem('Cookie')).toContain('does not let a page send');
    expect(problem('Sec-Fetch-Mode')).toContain('does not let a page send');
    expect(problem('Bad Name')).toContain('not a header name');
    expect(problem('X-A', 'one\ntwo')).toContain('one line');
    expect(
      checkHeaders([
        { name: 'X-A', value: '1' },
        { name: 'x-a', value: '2' },
      ]),
    ).toEqual({ ok: false, problem: 'Header 2: x-a is given twice.' });
  });
});
