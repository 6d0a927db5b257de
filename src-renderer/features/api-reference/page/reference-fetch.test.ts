import { describe, expect, it } from 'vitest';
import { referenceFetch, type ReferenceSession } from './reference-fetch';

const ORIGIN = 'http://127.0.0.1:7788';

function recorder(answer: () => Response = () => new Response('{}', { status: 200 })) {
  const sent: Request[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(new Request(input, init));
    return answer();
  };
  return { sent, fetchImpl };
}

const session = (): ReferenceSession => ({ org: 'demo', appKey: 'KEY', csrf: 'tok-1' });

describe('the reference page fetch', () => {
  it('adds the app key to org requests, the CSRF token on writes only, and sends the cookie', async () => {
    const { sent, fetchImpl } = recorder();
    const f = referenceFetch(session(), ORIGIN, fetchImpl);
    await f(`${ORIGIN}/demo/v2/accounts/me`);
    await f('/demo/v2/c_things', { method: 'POST', body: '{}' });
    await f(`${ORIGIN}/_service/openapi.json`);
    expect(
      sent.map((r) => [r.method, r.headers.get('service-client-key'), r.headers.get('service-csrf-token')]),
    ).toEqual([
      ['GET', 'KEY', null],
      ['POST', 'KEY', 'tok-1'],
      ['GET', null, null],
    ]);
    expect(sent.every((r) => r.credentials === 'same-origin')).toBe(true);
  });

  it('refuses any other origin before sending anything', async () => {
    const { sent, fetchImpl } = recorder();
    const f = referenceFetch(session(), ORIGIN, fetchImpl);
    await expect(f('https://proxy.example/demo/v2/accounts')).rejects.toThrow(/only calls this service/);
    await expect(f('http://127.0.0.1:9999/demo/v2/accounts')).rejects.toThrow(/only calls this service/);
    expect(sent).toHaveLength(0);
  });

  it('keeps the newest CSRF token the service sends, and sends it over a stale one', async () => {
    const { sent, fetchImpl } = recorder(() => new Response('{}', { headers: { 'Service-Csrf-Token': 'tok-2' } }));
    const s = session();
    const f = referenceFetch(s, ORIGIN, fetchImpl);
    await f('/demo/v2/accounts/me');
    expect(s.csrf).toBe('tok-2');
    await f('/demo/v2/accounts/me/logout', { method: 'POST', headers: { 'Service-Csrf-Token': 'tok-1' } });
    expect(sent[1]!.headers.get('service-client-key')).toBe('KEY');
    expect(sent[1]!.headers.get('service-csrf-token')).toBe('tok-2');
  });

  it('adds nothing to another org’s requests', async () => {
    const { sent, fetchImpl } = recorder();
    await referenceFetch(session(), ORIGIN, fetchImpl)('/acme/v2/accounts/me', { method: 'DELETE' });
    expect(sent[0]!.headers.get('service-client-key')).toBeNull();
    expect(sent[0]!.headers.get('service-csrf-token')).toBeNull();
  });
});
