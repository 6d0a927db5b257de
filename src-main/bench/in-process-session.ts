/**
 * The headers of an administrator's console session for in-process benches (`inject`, no socket):
 * the app key, the session cookie and the CSRF header, as the console sends them.
 */
import type { FastifyInstance } from 'fastify';

export async function sessionHeaders(
  server: FastifyInstance,
  org: string,
  appKey: string,
  email: string,
  password: string,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { host: '127.0.0.1:7788', 'service-client-key': appKey };
  const login = await server.inject({
    method: 'POST',
    url: `/${org}/v2/accounts/login`,
    headers,
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  headers.cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = login.headers['service-csrf-token'];
  if (typeof csrf === 'string') headers['service-csrf-token'] = csrf;
  return headers;
}
