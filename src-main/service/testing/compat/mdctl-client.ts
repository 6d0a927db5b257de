/**
 * The original system's published client (`@medable/mdctl-api` with its `-secrets` signer), made to
 * talk to this service with ONLY the vendor word changed (issue #15, docs/compatibility.md): header
 * names `medable-…` → `service-…`, the claim `cortex/eml` → `service/eml`, cookie names `md.…` →
 * `service.…`. The installed packages are copied into a temporary folder and rewritten there; the
 * installed copy and every other line of the client stay untouched.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The client's packages that carry code; all four are rewritten together so they load each other. */
const PACKAGES = ['mdctl-api', 'mdctl-core', 'mdctl-core-utils', 'mdctl-secrets'] as const;

interface Rewrite {
  what: string;
  pattern: RegExp;
  to: string;
}

/** Quoted names only, so that a word such as "medable" in a URL or comment stays as published. */
const REWRITES: Rewrite[] = [
  {
    what: 'header medable-… → service-…',
    pattern: /(['"`])medable-(client-key|client-signature|client-nonce|client-timestamp|client-account|csrf-token)\1/g,
    to: '$1service-$2$1',
  },
  { what: 'claim cortex/eml → service/eml', pattern: /(['"`])cortex\/eml\1/g, to: '$1service/eml$1' },
  { what: 'cookie md.… → service.…', pattern: /(['"`])md\.(sid|fingerprint)\1/g, to: '$1service.$2$1' },
];

/**
 * Where each rewrite must happen, at least this many times: if a new version of the client moved
 * a name, the suite fails here instead of silently testing a half-renamed client.
 */
const EXPECTED: Record<string, Record<string, number>> = {
  'mdctl-secrets/secrets/base.js': { 'header medable-… → service-…': 1 },
  'mdctl-secrets/secrets/signature.js': { 'header medable-… → service-…': 4 },
  'mdctl-secrets/secrets/token.js': { 'claim cortex/eml → service/eml': 2 },
  'mdctl-api/client.js': { 'header medable-… → service-…': 3, 'cookie md.… → service.…': 2 },
};

/** What the rewrite may leave behind: a quoted vendor name here means a missed place. */
const LEFTOVER = /(['"`])(medable-[a-z-]+|cortex\/[a-z]+|md\.(sid|fingerprint))\1/;

export interface RewrittenFile {
  file: string;
  what: string;
  count: number;
}

/** The client's classes, loosely typed: the published package ships no type declarations. */
export interface MdctlFault extends Error {
  code?: string;
  errCode?: string;
  status?: number;
  reason?: string;
  path?: string;
}

export interface MdctlClient {
  call(path: string, options?: Record<string, unknown>): Promise<unknown>;
  get(path: string, options?: Record<string, unknown>): Promise<unknown>;
  post(path: string, body?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  put(path: string, body?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  patch(path: string, body?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  delete(path: string, options?: Record<string, unknown>): Promise<unknown>;
  readonly response: { status: number; headers: Record<string, string> } | null;
}

export interface MdctlClientOptions {
  environment: { endpoint: string; env: string; version?: string } | string;
  credentials: Record<string, unknown>;
  sessions?: boolean;
  strictSSL?: boolean;
}

export interface MdctlModule {
  Client: new (options: MdctlClientOptions) => MdctlClient;
  dir: string;
  rewritten: RewrittenFile[];
  cleanup(): void;
}

function projectRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
}

function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // The packages' own nested dependencies (glob, uuid, js-yaml…) are not the client's code.
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}

/**
 * Copies the installed client into a temporary folder and rewrites the vendor word there.
 * The folder sits under the project's `node_modules/.cache`, so the copy resolves its ordinary
 * dependencies (axios, tough-cookie, jsonwebtoken…) from the project's own node_modules, exactly
 * as the installed client does; only the `@medable` packages come from the copy.
 */
export function loadRewrittenMdctl(log: (line: string) => void = () => undefined): MdctlModule {
  const root = projectRoot();
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'mdctl-compat-'));
  const scope = join(dir, 'node_modules', '@medable');
  for (const pkg of PACKAGES) {
    cpSync(join(root, 'node_modules', '@medable', pkg), join(scope, pkg), { recursive: true });
  }
  const rewritten: RewrittenFile[] = [];
  for (const file of jsFiles(scope)) {
    let text = readFileSync(file, 'utf8');
    const name = relative(scope, file);
    for (const { what, pattern, to } of REWRITES) {
      const count = text.match(pattern)?.length ?? 0;
      if (count === 0) continue;
      text = text.replace(pattern, to);
      rewritten.push({ file: name, what, count });
      log(`mdctl rewrite: ${name}: ${what} ×${count}`);
    }
    if (LEFTOVER.test(text))
      throw new Error(`mdctl rewrite: ${name} still names the vendor: ${LEFTOVER.exec(text)![0]}`);
    writeFileSync(file, text);
  }
  for (const [file, wants] of Object.entries(EXPECTED)) {
    for (const [what, min] of Object.entries(wants)) {
      const got = rewritten.find((r) => r.file === file && r.what === what)?.count ?? 0;
      if (got < min) {
        throw new Error(
          `mdctl rewrite: expected ${what} at least ${min}× in ${file}, found ${got}; the client changed`,
        );
      }
    }
  }
  const load = createRequire(join(dir, 'index.js'));
  const api = load('@medable/mdctl-api') as { Client: MdctlModule['Client'] };
  return {
    Client: api.Client,
    dir,
    rewritten,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
