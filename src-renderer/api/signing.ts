/**
 * Signed requests (docs/signing.md), computed in the browser with WebCrypto. The command and
 * message are built by the service's own canonicaliser (src-shared/contracts/signing.ts), so the
 * console's signatures are byte-identical to what the service expects.
 *
 * Everything here is pure apart from `crypto.subtle` / `crypto.getRandomValues`, which exist in
 * browsers (secure contexts: 127.0.0.1 is one) and in Node 20, so the unit tests run the same code.
 *
 * The app secret is an argument only: nothing here keeps it, logs it, or puts it in a URL.
 */
import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { HttpMethod } from './http';
import type { ListEnvelope } from './types';
import {
  canonicalQuery,
  commandFromUrlPath,
  NONCE_PATTERN,
  normaliseCommand,
  signatureKey,
  signatureMessage,
  signatureMessageV2,
  type SignatureVersion,
} from '../../src-shared/contracts/signing';
import {
  ACCOUNT_HEADER,
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SERVER_TIME_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../src-shared/contracts/http';

export const SIGNED_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const NONCE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

// The canonicalisation and header names are the service's own (src-shared/contracts); only the
// HMAC is computed here, with WebCrypto.
export { canonicalQuery, commandFromUrlPath, NONCE_PATTERN, normaliseCommand, signatureMessage, signatureMessageV2 };
export { ACCOUNT_HEADER, NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER };
export const KEY_HEADER = CLIENT_KEY_HEADER;

/** Lowercase hex HMAC-SHA256 of `message` under `key` (UTF-8 both). */
export async function hmacSha256Hex(
  key: string,
  message: string,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<string> {
  const encoder = new TextEncoder();
  const cryptoKey = await subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const digest = await subtle.sign('HMAC', cryptoKey, encoder.encode(message));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex SHA-256 of `text` as UTF-8 (the version-2 body digest). */
export async function sha256Hex(text: string, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<string> {
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function computeSignature(apiKey: string, apiSecret: string, message: string): Promise<string> {
  return hmacSha256Hex(signatureKey(apiKey, apiSecret), message);
}

/** 16 letters or digits from a CSPRNG (rejection sampling keeps the alphabet uniform). */
export function makeNonce(
  randomBytes: () => Uint8Array = () => globalThis.crypto.getRandomValues(new Uint8Array(32)),
): string {
  let out = '';
  while (out.length < 16) {
    for (const byte of randomBytes()) {
      if (byte < 248 && out.length < 16) out += NONCE_ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface SignedRequestInput {
  /** Origin the console is served from, e.g. `http://127.0.0.1:7788`. */
  origin: string;
  org: string;
  method: HttpMethod;
  /** Path relative to `/<org>/v2`, query string allowed: `/accounts/me`, `accounts?limit=5`. */
  path: string;
  /** JSON text; sent only for methods that carry a body. */
  body?: string;
  /** Account id or email for `Service-Client-Account` (apps with principal override only). */
  principal?: string;
  appKey: string;
  apiSecret: string;
  timestampMs: number;
  nonce: string;
  /** Signature version; the console signs with 2 (docs/signing.md) unless told otherwise. */
  version?: SignatureVersion;
  /** More request headers (not signed); the signer's own headers always win over these. */
  extraHeaders?: Record<string, string>;
}

/** Everything a signed request is made of, shown to the user and sent as is (also for a replay). */
export interface SignedRequestPlan {
  method: HttpMethod;
  version: SignatureVersion;
  url: string;
  command: string;
  message: string;
  timestampMs: number;
  nonce: string;
  signature: string;
  headers: Record<string, string>;
  body?: string;
}

export type PlanResult = { ok: true; plan: SignedRequestPlan } | { ok: false; problem: string };

export function methodHasBody(method: HttpMethod): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/**
 * Builds the URL the browser will send and signs its path. The path is resolved with `URL` first,
 * so the command is computed from exactly the (percent-encoded) path on the request line.
 */
export async function planSignedRequest(input: SignedRequestInput): Promise<PlanResult> {
  const relative = input.path.trim();
  if (relative === '') return { ok: false, problem: 'Enter a path, e.g. /accounts/me.' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(relative)) {
    return { ok: false, problem: `Enter a path relative to /${input.org}/v2, not a full URL.` };
  }
  let url: URL;
  try {
    url = new URL(`/${input.org}/v2/${relative.replace(/^\/+/, '')}`, input.origin);
  } catch {
    return { ok: false, problem: 'The path is not a valid URL path.' };
  }
  const command = commandFromUrlPath(url.pathname);
  // `..` segments are resolved by URL; the result must still be under this org's /v2.
  if (command === null || url.origin !== new URL(input.origin).origin || !url.pathname.startsWith(`/${input.org}/v2`)) {
    return { ok: false, problem: `The path leaves /${input.org}/v2.` };
  }
  if (!NONCE_PATTERN.test(input.nonce)) return { ok: false, problem: 'The nonce must be 16 letters or digits.' };
  if (input.appKey === '') return { ok: false, problem: 'Pick a signing app.' };
  if (input.apiSecret.trim() === '') return { ok: false, problem: "Paste the app's secret." };

  let body: string | undefined;
  if (methodHasBody(input.method) && input.body !== undefined && input.body.trim() !== '') {
    try {
      JSON.parse(input.body);
    } catch (error) {
      return { ok: false, problem: `The body is not valid JSON: ${(error as Error).message}` };
    }
    body = input.body;
  }

  const version = input.version ?? 2;
  let message = signatureMessage(command, input.method, input.timestampMs);
  if (version === 2) {
    const query = canonicalQuery(url.pathname + url.search);
    if (query === null) return { ok: false, problem: 'The query string is not valid percent-encoding.' };
    message = signatureMessageV2({
      command,
      method: input.method,
      timestampMs: input.timestampMs,
      nonce: input.nonce,
      query,
      bodySha256: await sha256Hex(body ?? ''),
    });
  }
  const signature = await computeSignature(input.appKey, input.apiSecret.trim(), message);
  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, value] of Object.entries(input.extraHeaders ?? {})) setHeader(headers, name, value);
  setHeader(headers, KEY_HEADER, input.appKey);
  setHeader(headers, SIGNATURE_HEADER, signature);
  setHeader(headers, TIMESTAMP_HEADER, String(input.timestampMs));
  setHeader(headers, NONCE_HEADER, input.nonce);
  if (version === 2) setHeader(headers, SIGNATURE_VERSION_HEADER, '2');
  const principal = input.principal?.trim();
  if (principal) setHeader(headers, ACCOUNT_HEADER, principal);
  if (body !== undefined) setHeader(headers, 'Content-Type', 'application/json');
  const plan: SignedRequestPlan = {
    method: input.method,
    version,
    url: url.href,
    command,
    message,
    timestampMs: input.timestampMs,
    nonce: input.nonce,
    signature,
    headers,
  };
  if (body !== undefined) plan.body = body;
  return { ok: true, plan };
}

/** Sets a header, replacing any earlier one of the same name in another case (one value per name). */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  headers[name] = value;
}

/** A shell command that sends the same request (single-quoted; the secret is never part of it). */
export function curlCommand(plan: SignedRequestPlan): string {
  const parts = ['curl', '-sS', '-X', plan.method];
  for (const [name, value] of Object.entries(plan.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (plan.body !== undefined) parts.push('--data-raw', shellQuote(plan.body));
  parts.push(shellQuote(plan.url));
  return parts.join(' ');
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface SignedResponse {
  status: number;
  /** `Service-Server-Time`, for clock comparison. */
  serverTime: number | null;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
  /** errCode when the answer is a fault. */
  errCode?: string;
  ms: number;
  /** The response's headers as the page may read them, in order. */
  headers: [string, string][];
}

/**
 * Sends the plan exactly as built. `credentials: 'omit'`: the console's own session cookie must not
 * ride along, or the service would see a session caller instead of the signature.
 */
export async function sendSignedRequest(
  plan: SignedRequestPlan,
  fetchImpl: (input: string, init: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
): Promise<SignedResponse> {
  const started = performance.now();
  const init: RequestInit = { method: plan.method, headers: plan.headers, credentials: 'omit', cache: 'no-store' };
  if (plan.body !== undefined) init.body = plan.body;
  const response = await fetchImpl(plan.url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? '' : (JSON.parse(text) as unknown);
  } catch {
    // Not JSON: shown as text.
  }
  const time = Number(response.headers.get(SERVER_TIME_HEADER));
  const result: SignedResponse = {
    status: response.status,
    serverTime: Number.isFinite(time) && time > 0 ? time : null,
    body,
    ms: Math.round(performance.now() - started),
    headers: [...response.headers.entries()],
  };
  const errCode = (body as { object?: unknown; errCode?: unknown } | null)?.errCode;
  if ((body as { object?: unknown } | null)?.object === 'fault' && typeof errCode === 'string')
    result.errCode = errCode;
  return result;
}

/** The apps of the org as `GET /apps` lists them (only what the composer needs). */
export interface AppSummary {
  key: string;
  kind: 'session' | 'signing';
  label: string;
  enabled: boolean;
  principalOverride: boolean;
  principalId: string | null;
}

export function signingAppsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: ['org', orgClient.org, 'signing', 'apps'] as const,
    queryFn: async ({ signal }): Promise<AppSummary[]> => {
      const list = await orgClient.get<ListEnvelope<AppSummary>>('apps', { signal, query: { limit: 1000 } });
      return list.data.filter((app) => app.kind === 'signing');
    },
  });
}
