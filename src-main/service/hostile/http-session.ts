/**
 * A logged-in administrator over real HTTP (fetch), for tests against service processes. Tests only.
 */
export const ADMIN = { email: 'admin@example.test', password: 'correct horse battery staple' };

export interface HttpSession {
  base: string;
  appKey: string;
  headers: Record<string, string>;
  get(path: string, extra?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, extra?: Record<string, string>): Promise<Response>;
}

/** Logs in through `POST /demo/v2/accounts/login` with the console app's key. */
export async function loginOverHttp(base: string): Promise<HttpSession> {
  const info = (await (await fetch(`${base}/_service/info`)).json()) as {
    data: { orgs: { code: string; consoleAppKey: string }[] };
  };
  const appKey = info.data.orgs[0]!.consoleAppKey;
  const res = await fetch(`${base}/demo/v2/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': appKey },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = {
    'service-client-key': appKey,
    'service-csrf-token': res.headers.get('service-csrf-token') ?? '',
    cookie,
  };
  return withSession(base, appKey, headers);
}

/** The same session against another process on the same data dir (sessions live in the database). */
export function withSession(base: string, appKey: string, headers: Record<string, string>): HttpSession {
  return {
    base,
    appKey,
    headers,
    get: (path, extra = {}) => fetch(`${base}/demo/v2${path}`, { headers: { ...headers, ...extra } }),
    post: (path, body, extra = {}) =>
      fetch(`${base}/demo/v2${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', ...extra },
        body: JSON.stringify(body),
      }),
  };
}
