/**
 * Services listening on loopback, each on its own data folder, and browser-like clients of one of
 * their orgs over real HTTP (fetch): for attacks that cross orgs and data folders. Tests only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openService } from '../open-service.js';
import { buildServer, listen } from '../server.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { Service } from '../service.js';

export interface ListeningService {
  svc: Service;
  dataDir: string;
  base: string;
  /** Console app key of each org, by code. */
  appKeys: Map<string, string>;
  close(): Promise<void>;
}

/**
 * A service on a fresh data folder (with its own `master.key`, as a headless service keeps it, so
 * another service may open the folder), its first org — the operator's — made at start.
 */
export async function startService(first: {
  code: string;
  email: string;
  password: string;
}): Promise<ListeningService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-boundary-'));
  const svc = openService({ dataDir });
  const { consoleAppKey } = await bootstrapOrg(svc, {
    code: first.code,
    adminEmail: first.email,
    adminPassword: first.password,
  });
  const server = await buildServer(svc);
  const port = await listen(server, 0);
  return {
    svc,
    dataDir,
    base: `http://127.0.0.1:${port}`,
    appKeys: new Map([[first.code, consoleAppKey]]),
    close: async () => {
      await server.close();
      svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read any member
  json: any;
}

/** A console-like client of one org: its app key, its session cookie and CSRF token. */
export class OrgClient {
  private cookies = new Map<string, string>();
  private csrf = '';
  constructor(
    readonly base: string,
    readonly org: string,
    readonly appKey: string,
    private readonly bearer?: string,
  ) {}

  async login(email: string, password: string): Promise<this> {
    const res = await this.send('POST', '/accounts/login', { email, password });
    if (res.status !== 200) throw new Error(`login to ${this.org} failed: ${res.body}`);
    return this;
  }

  get = (path: string) => this.send('GET', path);
  post = (path: string, body: unknown = {}) => this.send('POST', path, body);
  patch = (path: string, body: unknown) => this.send('PATCH', path, body);
  delete = (path: string) => this.send('DELETE', path);

  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.base}/${this.org}/v2${path}`, {
      method,
      headers: {
        ...(this.bearer ? { authorization: `Bearer ${this.bearer}` } : { 'service-client-key': this.appKey }),
        ...(this.csrf ? { 'service-csrf-token': this.csrf } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name, value ?? '');
    }
    this.csrf = res.headers.get('service-csrf-token') ?? this.csrf;
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: text, json };
  }
}

/** The `_id` of the signed-in account. */
export async function myId(client: OrgClient): Promise<string> {
  return (await client.get('/accounts/me')).json._id as string;
}
