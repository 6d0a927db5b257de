/**
 * Test helpers for tokens and the access model: minting through the route, calling with a bearer
 * token, and making plain accounts. Used by tests only.
 */
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { injectAsClient, type Harness, type TestClient } from './harness.js';

export const USER_PASSWORD = 'a long user password';

/** Creates a verified, role-less account as the admin; returns its id. */
export async function createUser(admin: TestClient, email: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/accounts', {
    email,
    password: USER_PASSWORD,
    name: { first: email.split('@')[0], last: 'User' },
    state: 'verified',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

/** Mints a token through `POST /accounts/:id/tokens` as `admin`; returns the JWT. */
export async function mint(admin: TestClient, accountId: string, body: Record<string, unknown>): Promise<string> {
  const res = await admin.post(`/accounts/${accountId}/tokens`, body);
  expect(res.statusCode, res.body).toBe(200);
  const jwt = res.json().data as string;
  expect(jwt.split('.')).toHaveLength(3);
  return jwt;
}

/** A client that authenticates with `Authorization: Bearer <token>` and nothing else. */
export class BearerClient {
  constructor(
    private readonly h: Harness,
    public token: string,
    private readonly headers: Record<string, string> = {},
    private readonly org: string = h.org,
  ) {}

  request(method: InjectOptions['method'], path: string, body?: unknown) {
    return injectAsClient(this.h.server, {
      method,
      url: `/${this.org}/v2${path}`,
      headers: { host: '127.0.0.1:7788', authorization: `Bearer ${this.token}`, ...this.headers },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body: unknown = {}) => this.request('POST', path, body);
  patch = (path: string, body: unknown) => this.request('PATCH', path, body);
  put = (path: string, body: unknown) => this.request('PUT', path, body);
  delete = (path: string) => this.request('DELETE', path);
}
