/**
 * A small Node-side client of the service for e2e setup and checks: logs in once (cookie +
 * CSRF token kept), then reads and writes like any HTTP client would.
 */
export interface ObjectsApi {
  key: string;
  get<T = unknown>(path: string): Promise<{ status: number; body: T }>;
  send<T = unknown>(
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
}

export async function objectsApi(baseUrl: string, email: string, password: string, org = 'demo'): Promise<ObjectsApi> {
  const info = (await (await fetch(`${baseUrl}/_service/info`)).json()) as {
    data: { orgs: { code: string; consoleAppKey: string }[] };
  };
  const key = info.data.orgs.find((o) => o.code === org)?.consoleAppKey ?? '';
  const cookies = new Map<string, string>();
  let csrf = '';
  const call = async <T>(method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'Service-Client-Key': key, Accept: 'application/json' };
    if (cookies.size > 0) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (csrf && method !== 'GET') headers['Service-Csrf-Token'] = csrf;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${baseUrl}/${org}/v2/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    csrf = response.headers.get('Service-Csrf-Token') ?? csrf;
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const login = await call('POST', 'accounts/login', { email, password });
  if (login.status !== 200) throw new Error(`e2e login failed: ${JSON.stringify(login.body)}`);
  return {
    key,
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
  };
}

const FIRST = ['Ann', 'Bob', 'Cleo', 'Dan', 'Eve', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jia'];
const LAST = ['Smith', 'Stone', 'Lee', 'Sato', 'Brown', 'Silva', 'Meyer', 'Khan', 'shaw'];

/** `count` accounts with varied names, flags and custom properties. */
export async function seedAccounts(api: ObjectsApi, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const result = await api.send('POST', 'accounts', {
      email: `user${String(i).padStart(3, '0')}@demo.test`,
      password: 'staple horse 42',
      name: { first: FIRST[i % FIRST.length], last: LAST[i % LAST.length] },
      favorite: i % 3 === 0,
      locale: i % 2 ? 'en_US' : 'de_DE',
      c_study_groups: i % 4 ? [`g${i % 3}`] : [],
    });
    if (result.status !== 200) throw new Error(`seeding failed: ${JSON.stringify(result.body)}`);
  }
}
