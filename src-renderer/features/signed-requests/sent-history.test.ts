import { describe, expect, it } from 'vitest';
import { MAX_HISTORY, clearSent, recordSent, requestKey, sentRequests, type ComposedRequest } from './sent-history';

const REQUEST: ComposedRequest = {
  app: 'key1',
  method: 'GET',
  path: '/accounts?limit=5',
  body: '',
  as: '',
  headers: [{ name: 'X-Trace', value: 't1' }],
};

describe('sent history', () => {
  it('keeps entries per org, newest first, as copies, and drops the oldest past its bound', () => {
    clearSent('demo');
    const headers = [{ name: 'X-A', value: '1' }];
    recordSent('demo', { ...REQUEST, headers, at: 1, status: 200 });
    headers[0]!.value = 'changed';
    recordSent('demo', { ...REQUEST, path: '/accounts/me', at: 2, status: 403 });
    const list = sentRequests('demo');
    expect(list.map((e) => e.at)).toEqual([2, 1]);
    expect(list[1]!.headers).toEqual([{ name: 'X-A', value: '1' }]);
    expect(sentRequests('other')).toEqual([]);
    for (let i = 0; i < MAX_HISTORY + 5; i++) recordSent('demo', { ...REQUEST, at: 10 + i });
    expect(sentRequests('demo')).toHaveLength(MAX_HISTORY);
    expect(sentRequests('demo')[0]!.at).toBe(10 + MAX_HISTORY + 4);
  });
});

describe('requestKey', () => {
  it('changes with anything that changes the request', () => {
    const key = requestKey(REQUEST, false);
    expect(requestKey({ ...REQUEST, path: '/accounts?limit=6' }, false)).not.toBe(key);
    expect(requestKey({ ...REQUEST, headers: [{ name: 'X-Trace', value: 't2' }] }, false)).not.toBe(key);
    expect(requestKey({ ...REQUEST, method: 'DELETE' }, false)).not.toBe(key);
    expect(requestKey({ ...REQUEST, as: 'ann@demo.test' }, false)).not.toBe(key);
    expect(requestKey({ ...REQUEST, body: '{"a":1}' }, true)).not.toBe(requestKey(REQUEST, true));
  });

  it('ignores what is not sent: blank header rows, a body the method does not carry, padding', () => {
    const key = requestKey(REQUEST, false);
    expect(requestKey({ ...REQUEST, headers: [...REQUEST.headers, { name: '', value: ' ' }] }, false)).toBe(key);
    expect(requestKey({ ...REQUEST, body: '{"ignored":true}' }, false)).toBe(key);
    expect(requestKey({ ...REQUEST, headers: [{ name: ' X-Trace', value: 't1 ' }] }, false)).toBe(key);
  });
});
