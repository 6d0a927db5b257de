/**
 * The ways a client gets into the service, as the bench measures them: each prepares its
 * credentials on a running service (through the HTTP API, as an operator would) and then gives the
 * headers of each request. Adding a way in is one entry in `WAYS_IN`.
 */
import { randomBytes } from 'node:crypto';
import { signRequest } from '../service/auth/signatures/signature.js';
import { send } from './http-client.js';

/** What every way in starts from: a running service and an org administrator's session. */
export interface Setup {
  port: number;
  /** `/<org>/v2`. */
  base: string;
  /** Headers of the administrator's console session (app key, cookie, CSRF token). */
  admin: Record<string, string>;
  adminId: string;
  consoleAppKey: string;
}

export interface Credentials {
  /** The headers of one request (`path` as sent, from `/<org>/v2`); signed ways differ per request. */
  headers(path: string, method: string): Record<string, string>;
  /** Signed ways: the app's key and secret, which the authenticating floor verifies with. */
  signing?: { key: string; secret: string };
}

export interface WayIn {
  name: string;
  prepare(setup: Setup): Promise<Credentials>;
}

/** Logs the seeded administrator (`admin@demo.example`) in to the console app. */
export async function adminSetup(port: number, base: string, password: string): Promise<Setup> {
  const info = JSON.parse((await send(port, '/_service/info')).body) as { data: { orgs: { consoleAppKey: string }[] } };
  const consoleAppKey = info.data.orgs[0]!.consoleAppKey;
  const login = await send(port, `${base}/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-client-key': consoleAppKey },
    body: JSON.stringify({ email: 'admin@demo.example', password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.body}`);
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
  const admin = {
    'service-client-key': consoleAppKey,
    'service-csrf-token': String(login.headers['service-csrf-token']),
    cookie,
  };
  const me = JSON.parse((await send(port, `${base}/accounts/me`, { headers: admin })).body) as { _id: string };
  return { port, base, admin, adminId: me._id, consoleAppKey };
}

async function post(setup: Setup, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await send(setup.port, `${setup.base}${path}`, {
    method: 'POST',
    headers: { ...setup.admin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** The administrator's console session, as the console itself calls the service. */
const session: WayIn = {
  name: 'session',
  prepare: async ({ admin }) => {
    const headers = { 'service-client-key': admin['service-client-key']!, cookie: admin.cookie! };
    return { headers: () => headers };
  },
};

/**
 * A bearer token of scope `*` for the administrator, from an app of its own whose key pair signs
 * with `alg`; it outlives the longest run.
 */
const token = (name: string, alg: 'PS512' | 'RS512'): WayIn => ({
  name,
  prepare: async (setup) => {
    const app = await post(setup, '/apps', { kind: 'session', label: `bench ${alg}`, alg });
    if (app.alg !== alg) throw new Error(`${name}: the app signs with ${String(app.alg)}, not ${alg}`);
    const minted = await post(setup, `/accounts/${setup.adminId}/tokens`, {
      app: app.key,
      scope: ['*'],
      expiresIn: 86_400,
    });
    const headers = { authorization: `Bearer ${String(minted.data)}` };
    return { headers: () => headers };
  },
});

type Signer = (input: { key: string; secret: string; url: string; method: string; nonce: string; ts: number }) => {
  signature: string;
  extra?: Record<string, string>;
};

/**
 * Signed requests from a signing app acting as the administrator (its `principalId`), a fresh
 * signature, timestamp and nonce per request. Timestamps are kept distinct per signed command
 * (one millisecond on from the last when requests come faster), since a version-1 signature covers
 * only command, method and time, and two requests with one signature count as a replay.
 */
const signed = (name: string, sign: Signer): WayIn => ({
  name,
  prepare: async (setup) => {
    const app = await post(setup, '/apps', {
      kind: 'signing',
      label: `bench ${name}`,
      principalId: setup.adminId,
    });
    const key = String(app.key);
    const secret = String(app.secret);
    const lastTs = new Map<string, number>();
    const prefix = randomBytes(4).toString('hex').slice(0, 6);
    let n = 0;
    return {
      signing: { key, secret },
      headers: (path, method) => {
        const command = path.split('?', 1)[0]!;
        const ts = Math.max(Date.now(), (lastTs.get(command) ?? 0) + 1);
        lastTs.set(command, ts);
        const nonce = prefix + (n++).toString(36).padStart(10, '0');
        const { signature, extra } = sign({ key, secret, url: `${setup.base}${path}`, method, nonce, ts });
        return {
          'service-client-key': key,
          'service-client-signature': signature,
          'service-client-timestamp': String(ts),
          'service-client-nonce': nonce,
          ...extra,
        };
      },
    };
  },
});

/** Version 1 (docs/signing.md): HMAC-SHA256 of `command;METHOD;timestampMs`. */
const signV1: Signer = ({ key, secret, url, method, ts }) => ({
  signature: signRequest({ apiKey: key, apiSecret: secret, url, method, timestampMs: ts }),
});

/**
 * Version 2 (docs/signing.md): also nonce, canonical query and body digest. The bench sends no bodies
 * on signed ways, so the body digest is of no bytes.
 */
const signV2: Signer = ({ key, secret, url, method, nonce, ts }) => ({
  signature: signRequest({ apiKey: key, apiSecret: secret, url, method, timestampMs: ts, version: 2, nonce }),
  extra: { 'service-client-signature-version': '2' },
});

/** Every way in, in table order. */
export const WAYS_IN: readonly WayIn[] = [
  session,
  token('token-ps512', 'PS512'),
  token('token-rs512', 'RS512'),
  signed('signed-v1', signV1),
  signed('signed-v2', signV2),
];

export function wayIn(name: string): WayIn {
  const way = WAYS_IN.find((w) => w.name === name);
  if (!way) throw new Error(`unknown way in ${name} (one of ${WAYS_IN.map((w) => w.name).join(', ')})`);
  return way;
}
