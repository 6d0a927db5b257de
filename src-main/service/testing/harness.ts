import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import inject from 'light-my-request';
import { openService } from '../open-service.js';
import { buildServer } from '../server.js';
import { bootstrapOrg } from '../bootstrap.js';
import { ManualClock } from '../clock.js';
import type { Service } from '../service.js';
import type { ReplayLimits } from '../auth/signatures/replay-store.js';

export const ADMIN_EMAIL = 'admin@example.test';
export const ADMIN_PASSWORD = 'correct horse battery';

export interface Harness {
  svc: Service;
  server: FastifyInstance;
  clock: ManualClock;
  dataDir: string;
  org: string;
  consoleAppKey: string;
  close(): Promise<void>;
}

/** A service on its own temporary data dir, with a frozen clock, driven in-process. */
export async function createHarness(
  opts: { bootstrap?: boolean; defaultOrg?: string; replayLimits?: Partial<ReplayLimits> } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const clock = new ManualClock(Date.parse('2026-01-15T12:00:00.000Z'));
  const svc = openService({
    dataDir,
    clock,
    masterKey: randomBytes(32),
    ...(opts.replayLimits ? { replayLimits: opts.replayLimits } : {}),
  });
  let consoleAppKey = '';
  if (opts.bootstrap !== false) {
    ({ consoleAppKey } = await bootstrapOrg(svc, {
      code: 'demo',
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
    }));
  }
  const server = await buildServer(svc, opts.defaultOrg ? { defaultOrg: opts.defaultOrg } : {});
  return {
    svc,
    server,
    clock,
    dataDir,
    org: 'demo',
    consoleAppKey,
    close: async () => {
      await server.close();
      svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Sends a request the way a client's arrives: through the HTTP server's own dispatch (direct
 * instance reads, then Fastify). `server.inject` reaches Fastify's handler only.
 */
export async function injectAsClient(server: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  await server.ready();
  return inject(server.dispatch, options);
}

/** A browser-like client: keeps the session cookie and CSRF token, sends the app key. */
export class TestClient {
  private cookies = new Map<string, string>();
  csrf?: string;

  constructor(
    private readonly h: Harness,
    private readonly appKey: string = h.consoleAppKey,
  ) {}

  async request(method: InjectOptions['method'], path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await injectAsClient(this.h.server, {
      method,
      url: path.startsWith('/_service') ? path : `/${this.h.org}/v2${path}`,
      headers: {
        host: '127.0.0.1:7788',
        ...(this.appKey ? { 'service-client-key': this.appKey } : {}),
        ...(this.csrf ? { 'service-csrf-token': this.csrf } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });
    this.remember(res);
    return res;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', path, body ?? {}, headers);
  patch = (path: string, body: unknown) => this.request('PATCH', path, body);
  put = (path: string, body: unknown) => this.request('PUT', path, body);
  delete = (path: string) => this.request('DELETE', path);

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
    const res = await this.post('/accounts/login', { email, password });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
    return res;
  }

  /** The session cookie as a `cookie` header, for a request made over a socket (a stream). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: LightMyRequestResponse): void {
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const csrf = res.headers['service-csrf-token'];
    if (typeof csrf === 'string') this.csrf = csrf;
  }
}

/** URL query for list arguments, JSON-encoding where and sort objects. */
export function listQuery(
  args: { where?: unknown; sort?: unknown; skip?: number; limit?: number; paths?: string[] },
  prefix = '',
): string {
  const parts: string[] = [];
  const enc = encodeURIComponent;
  if (args.where !== undefined) parts.push(`${prefix}where=${enc(JSON.stringify(args.where))}`);
  if (args.sort !== undefined)
    parts.push(`${prefix}sort=${enc(typeof args.sort === 'string' ? args.sort : JSON.stringify(args.sort))}`);
  if (args.skip !== undefined) parts.push(`${prefix}skip=${args.skip}`);
  if (args.limit !== undefined) parts.push(`${prefix}limit=${args.limit}`);
  for (const p of args.paths ?? []) parts.push(`${prefix}paths[]=${enc(p)}`);
  return parts.join('&');
}
