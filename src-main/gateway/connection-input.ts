/**
 * Validation of every IPC argument the console sends to main (src-shared/contracts/connections.ts).
 * The renderer is treated as untrusted input: typed, bounded, no unknown fields, meaningful for the
 * credential kind. Pure functions, tested without Electron.
 */
import { CREDENTIAL_KINDS, type ConnectionDraft, type CredentialKind } from '../../src-shared/contracts/connections.js';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problem: string };

const ID_PATTERN = /^[a-z0-9-]{1,64}$/;
const MAX_NAME = 80;
const MAX_SECRET = 8192;
const MAX_FIELD = 256;

/** An id from the renderer: a short opaque string, nothing else. */
export function parseConnectionId(value: unknown): ParseResult<string> {
  return typeof value === 'string' && ID_PATTERN.test(value)
    ? { ok: true, value }
    : { ok: false, problem: 'A connection id is a short string of letters, digits and dashes.' };
}

/**
 * The remote's origin from what the user typed: http or https, no credentials in the URL (they
 * would reach logs and history), no path (the gateway forwards the console's own paths).
 */
export function parseServiceUrl(value: unknown): ParseResult<string> {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 2048) {
    return { ok: false, problem: 'Enter the service URL, e.g. http://10.0.0.5:7788.' };
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { ok: false, problem: 'The URL is not valid.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: 'The URL must start with http:// or https://.' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: 'Put credentials in their own fields, not in the URL.' };
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return { ok: false, problem: 'Enter only the service origin (scheme, host and port), without a path.' };
  }
  return { ok: true, value: url.origin };
}

function optionalText(value: unknown, max: number): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) return null;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Validates the renderer's form in main: every field typed, bounded, and meaningful for its kind. */
export function parseConnectionDraft(value: unknown): ParseResult<ConnectionDraft> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'A connection is an object.' };
  }
  const input = value as Record<string, unknown>;
  const known = new Set(['id', 'name', 'url', 'kind', 'appKey', 'principal', 'secret']);
  const unknown = Object.keys(input).find((key) => !known.has(key));
  if (unknown !== undefined) return { ok: false, problem: `Unknown field "${unknown}".` };

  const draft: Partial<ConnectionDraft> = {};
  if (input.id !== undefined) {
    const id = parseConnectionId(input.id);
    if (!id.ok) return id;
    draft.id = id.value;
  }
  const name = optionalText(input.name, MAX_NAME);
  if (name === null || name === undefined)
    return { ok: false, problem: `Give the connection a name (up to ${MAX_NAME} characters).` };
  draft.name = name;
  const url = parseServiceUrl(input.url);
  if (!url.ok) return url;
  draft.url = url.value;
  if (typeof input.kind !== 'string' || !(CREDENTIAL_KINDS as readonly string[]).includes(input.kind)) {
    return { ok: false, problem: 'Pick how to sign in: session, token or signing.' };
  }
  draft.kind = input.kind as CredentialKind;

  const secret = optionalText(input.secret, MAX_SECRET);
  if (secret === null) return { ok: false, problem: 'The secret is too long.' };
  const appKey = optionalText(input.appKey, MAX_FIELD);
  const principal = optionalText(input.principal, MAX_FIELD);
  if (appKey === null || principal === null) return { ok: false, problem: 'A field is too long.' };

  if (draft.kind === 'session') {
    // The session is the gateway's cookie jar, filled by the console's own login screen: a
    // password is never stored, so there is nothing secret to send.
    if (secret !== undefined || appKey !== undefined || principal !== undefined) {
      return { ok: false, problem: 'A session connection has no stored secret: you sign in on its login screen.' };
    }
  } else if (draft.kind === 'token') {
    if (appKey !== undefined || principal !== undefined) {
      return { ok: false, problem: 'A token connection has only the token.' };
    }
    if (secret !== undefined && !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(secret)) {
      return { ok: false, problem: 'The token is not a JWT (three dot-separated parts).' };
    }
  } else {
    if (appKey === undefined) return { ok: false, problem: 'Enter the signing app key.' };
    draft.appKey = appKey;
    if (principal !== undefined) draft.principal = principal;
  }
  if (secret !== undefined) draft.secret = secret;
  // A new token or signing connection needs its secret; an edited one may keep the stored one.
  if (draft.kind !== 'session' && draft.id === undefined && draft.secret === undefined) {
    return { ok: false, problem: draft.kind === 'token' ? 'Paste the token.' : "Paste the app's API secret." };
  }
  return { ok: true, value: draft as ConnectionDraft };
}
