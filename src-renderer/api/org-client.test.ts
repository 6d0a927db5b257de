import { describe, expect, it } from 'vitest';
import { makeFault } from '../../src-shared/faults';
import { ApiError } from './api-error';
import type { FetchLike } from './http';
import { OrgClient } from './org-client';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(responses: Response[]): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: (url, init) => {
      calls.push({ url, init });
      const next = responses.shift();
      return next ? Promise.resolve(next) : Promise.reject(new TypeError('Failed to fetch'));
    },
  };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const headerOf = (call: Call | undefined, name: string) => (call?.init.headers as Record<string, string>)[name];

describe('OrgClient', () => {
  it('sends the app key, and the latest CSRF token on mutations only', async () => {
    const { fetch, calls } = fakeFetch([
      json({ _id: 'a', object: 'account' }, 200, { 'Service-Csrf-Token': 'tok-1' }),
      json({ object: 'list', data: [], hasMore: false }, 200, { 'Service-Csrf-Token': 'tok-2' }),
      json({ object: 'result', data: true }),
    ]);
    const client = new OrgClient('demo', 'KEY', fetch);
    await client.post('accounts/login', { email: 'a@b.c', password: 'x' });
    await client.get('accounts', { query: { limit: 25, skip: 0 } });
    await client.post('accounts/me/logout');

    expect(calls.map((call) => call.url)).toEqual([
      '/demo/v2/accounts/login',
      '/demo/v2/accounts?limit=25&skip=0',
      '/demo/v2/accounts/me/logout',
    ]);
    expect(headerOf(calls[0], 'Service-Client-Key')).toBe('KEY');
    expect(headerOf(calls[0], 'Service-Csrf-Token')).toBeUndefined();
    expect(headerOf(calls[1], 'Service-Csrf-Token')).toBeUndefined();
    expect(headerOf(calls[2], 'Service-Csrf-Token')).toBe('tok-2');
    expect(calls[2]?.init.credentials).toBe('same-origin');
  });

  it('throws service faults as ApiError, including faults sent with status 200', async () => {
    const invalid = makeFault('accessDenied', 'invalidCredentials');
    const newLocation = { ...makeFault('error'), status: 200, errCode: 'service.success.newLocation' };
    const { fetch } = fakeFetch([json(invalid, 403), json(newLocation, 200)]);
    const client = new OrgClient('demo', 'KEY', fetch);

    await expect(client.post('accounts/login', {})).rejects.toMatchObject({ fault: invalid });
    await expect(client.post('accounts/login', {})).rejects.toMatchObject({
      errCode: 'service.success.newLocation',
    });
  });

  it('turns non-fault failures into console faults', async () => {
    const { fetch } = fakeFetch([new Response('<html>Bad gateway</html>', { status: 502 })]);
    const client = new OrgClient('demo', 'KEY', fetch);
    const badGateway = await client.get('accounts').catch((error: unknown) => error);
    expect(badGateway).toBeInstanceOf(ApiError);
    expect((badGateway as ApiError).errCode).toBe('console.http.unexpectedResponse');
    expect((badGateway as ApiError).status).toBe(502);

    const unreachable = await client.get('accounts').catch((error: unknown) => error);
    expect((unreachable as ApiError).errCode).toBe('console.network.unreachable');
  });

  it('reports an ended session and forgets the CSRF token', async () => {
    const expired = makeFault('accessDenied', 'sessionExpired');
    const { fetch, calls } = fakeFetch([
      json({ object: 'result', data: { loggedin: true } }, 200, { 'Service-Csrf-Token': 'tok' }),
      json(expired, 403),
      json(makeFault('accessDenied', 'notLoggedIn'), 403),
    ]);
    const client = new OrgClient('demo', 'KEY', fetch);
    const ended: string[] = [];
    client.onSessionEnded((fault) => ended.push(fault.errCode));

    await client.get('accounts/status');
    await expect(client.get('accounts')).rejects.toBeInstanceOf(ApiError);
    await expect(client.post('accounts/me/logout')).rejects.toBeInstanceOf(ApiError);

    expect(ended).toEqual(['service.accessDenied.sessionExpired', 'service.accessDenied.notLoggedIn']);
    expect(headerOf(calls[2], 'Service-Csrf-Token')).toBeUndefined();
  });
});
