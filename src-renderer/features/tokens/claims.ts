/**
 * Reading a JWT without trusting it: split and base64url-decode header and payload, and put every
 * claim into words (docs/tokens.md#claims, docs/tokens.md). Nothing here verifies a
 * signature; that is the Verify pane's job.
 */
import { CLAIM } from '../../../src-shared/contracts/tokens';

export type JsonObject = Record<string, unknown>;

export type DecodedJwt =
  { ok: true; header: JsonObject; payload: JsonObject; signature: string } | { ok: false; reason: string };

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

function decodePart(part: string, name: string): JsonObject | string {
  if (part === '') return `The ${name} is empty.`;
  if (!BASE64URL.test(part)) return `The ${name} is not base64url text.`;
  let text: string;
  try {
    text = base64UrlDecode(part);
  } catch {
    return `The ${name} is not valid base64url-encoded UTF-8.`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `The ${name} is not JSON.`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `The ${name} is not a JSON object.`;
  return value as JsonObject;
}

/** Decodes `header.payload.signature`; surrounding whitespace and a `Bearer ` prefix are ignored. */
export function decodeJwt(text: string): DecodedJwt {
  const token = text.trim().replace(/^Bearer\s+/i, '');
  if (token === '') return { ok: false, reason: 'Paste a token.' };
  const parts = token.split('.');
  if (parts.length !== 3) {
    return { ok: false, reason: `A JWT has three parts separated by dots; this has ${parts.length}.` };
  }
  const [headerPart = '', payloadPart = '', signature = ''] = parts;
  const header = decodePart(headerPart, 'header');
  if (typeof header === 'string') return { ok: false, reason: header };
  const payload = decodePart(payloadPart, 'payload');
  if (typeof payload === 'string') return { ok: false, reason: payload };
  if (signature === '' || !BASE64URL.test(signature)) return { ok: false, reason: 'The signature part is missing.' };
  return { ok: true, header, payload, signature };
}

/** The token text as a verifier needs it (the same normalisation as decodeJwt). */
export function normalizeToken(text: string): string {
  return text.trim().replace(/^Bearer\s+/i, '');
}

/** Access levels (docs/scopes.md). */
export const ACCESS_LEVELS: Readonly<Record<number, string>> = {
  1: 'public',
  2: 'connected',
  3: 'read',
  4: 'share',
  5: 'update',
  6: 'delete',
  7: 'script',
  8: 'admin',
};

export interface ClaimExplanation {
  claim: string;
  /** The value as JSON text. */
  value: string;
  /** What the claim means for this token, in words. */
  meaning: string;
  /** For time claims: the instant as an ISO date. */
  date?: string;
  /** Where the claim is known: the JOSE header, a registered claim, or the service's own. */
  group: 'header' | 'registered' | 'service' | 'other';
  /** A problem seen without verifying (wrong type, unknown algorithm). */
  warning?: string;
}

const json = (value: unknown) => JSON.stringify(value);

/** Unix seconds as an ISO date, or undefined when the value is not a time. */
export function unixToIso(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** "2 h 5 min", "40 s", "3 d 4 h": a span for people. */
export function formatDuration(seconds: number): string {
  const s = Math.round(Math.abs(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${s % 3600 >= 60 ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${s % 86_400 >= 3600 ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

const HEADER_MEANINGS: Readonly<Record<string, (value: unknown) => string>> = {
  alg: (v) =>
    v === 'PS512'
      ? 'Signature algorithm: RSA-PSS with SHA-512 (the service’s default).'
      : v === 'RS512'
        ? 'Signature algorithm: RSA PKCS#1 v1.5 with SHA-512 (chosen per app for verifiers that expect it).'
        : `Signature algorithm ${json(v)}: not one the service signs with (PS512 or RS512).`,
  kid: () =>
    'Key id: the RFC 7638 thumbprint of the app’s public key. The same kid is listed in /auth/certs/jwk when the app exposes its keys; after the key pair is regenerated no key has this id any more.',
  typ: (v) => (v === 'JWT' ? 'Media type: a JSON Web Token.' : `Media type ${json(v)}.`),
};

function timeMeaning(claim: 'iat' | 'nbf' | 'exp', value: unknown, payload: JsonObject): string {
  const iat = typeof payload.iat === 'number' ? payload.iat : undefined;
  const nbf = typeof payload.nbf === 'number' ? payload.nbf : undefined;
  if (claim === 'iat') return 'Issued at: when the service minted the token.';
  if (claim === 'nbf') {
    const after =
      iat !== undefined && typeof value === 'number' && value > iat
        ? ` (${formatDuration(value - iat)} after it was issued)`
        : '';
    return `Not before: the token is refused until this moment${after}.`;
  }
  const start = nbf ?? iat;
  const life =
    start !== undefined && typeof value === 'number'
      ? ` It lives ${formatDuration(value - start)} from ${nbf !== undefined ? 'nbf' : 'iat'}.`
      : '';
  return `Expires: the token is refused from this moment on.${life}`;
}

function registeredMeaning(claim: string, value: unknown, payload: JsonObject): string | undefined {
  switch (claim) {
    case 'aud':
      return `Audience: the org's service URL the token is for (${json(value)}). Another org refuses it.`;
    case 'iss':
      return 'Issuer: the key of the application that minted and signed the token. The token is checked against this app’s current key pair and settings (enabled, expiry).';
    case 'sub':
      return 'Subject: the account id the token authenticates as; GET /accounts/me answers as this account.';
    case 'iat':
    case 'nbf':
    case 'exp':
      return timeMeaning(claim, value, payload);
    case 'jti':
      return 'Token id: present because the token is permanent or limited-use. The service stores it, so it can be listed, counted and revoked one by one.';
    default:
      return undefined;
  }
}

function scopeMeaning(value: unknown): string {
  if (!Array.isArray(value)) return 'Scope chains, but not an array: the service refuses such a token.';
  if (value.length === 0)
    return 'No scope chains: the token may do only what the scopes of its roles allow (no roles, nothing).';
  if (value.includes('*')) return 'Scope "*": the token may do everything its subject can.';
  return `Scope: the token is limited to ${value.length === 1 ? 'this chain' : `these ${value.length} chains`} (plus the scopes of its roles); anything else is refused with accessDenied.scope.`;
}

function serviceMeaning(claim: string, value: unknown): string | undefined {
  switch (claim) {
    case CLAIM.scope:
      return scopeMeaning(value);
    case CLAIM.roles:
      return Array.isArray(value)
        ? `Roles granted to the token (${value.length}), merged with the subject's own roles; their scopes add to the token's.`
        : 'Roles, but not an array: the service refuses such a token.';
    case CLAIM.skipAcl:
      return value === true
        ? 'Skip ACL: lists and reads match objects regardless of access control (script analogue: skipAcl).'
        : 'Skip ACL is off: access control applies to matches.';
    case CLAIM.bypassCreateAcl:
      return value === true
        ? 'Bypass create ACL: the token may create instances that the object’s create ACL would refuse (script analogue: bypassCreateAcl).'
        : 'Create ACL applies.';
    case CLAIM.grant:
      return typeof value === 'number'
        ? `Grant: raises the token's access to objects it can reach to level ${value} (${ACCESS_LEVELS[value] ?? 'unknown level'}); capped at 7 (script).`
        : 'Grant, but not a number: the service refuses such a token.';
    case CLAIM.maxUses:
      return typeof value === 'number'
        ? `Use limit: the token authenticates at most ${value} time${value === 1 ? '' : 's'}; each request counts one, and then it is refused.`
        : 'Use limit, but not a number: the service refuses such a token.';
    default:
      return undefined;
  }
}

/** Every header field and claim of a decoded token, explained. Unknown claims are listed too. */
export function explainClaims(header: JsonObject, payload: JsonObject): ClaimExplanation[] {
  const out: ClaimExplanation[] = [];
  for (const [claim, value] of Object.entries(header)) {
    const meaning = HEADER_MEANINGS[claim]?.(value) ?? 'A header field the service does not set.';
    const entry: ClaimExplanation = { claim, value: json(value), meaning, group: 'header' };
    if (claim === 'alg' && value !== 'PS512' && value !== 'RS512') entry.warning = 'Unexpected algorithm.';
    out.push(entry);
  }
  for (const [claim, value] of Object.entries(payload)) {
    const registered = registeredMeaning(claim, value, payload);
    const service = registered === undefined ? serviceMeaning(claim, value) : undefined;
    const entry: ClaimExplanation = {
      claim,
      value: json(value),
      meaning: registered ?? service ?? 'A claim the service does not set; it is ignored.',
      group: registered !== undefined ? 'registered' : service !== undefined ? 'service' : 'other',
    };
    if (claim === 'iat' || claim === 'nbf' || claim === 'exp') {
      const date = unixToIso(value);
      if (date) entry.date = date;
      else entry.warning = 'Not a Unix time in seconds.';
    }
    out.push(entry);
  }
  if (!('exp' in payload)) {
    out.push({
      claim: 'exp',
      value: '(absent)',
      meaning:
        'No expiry: a permanent token. It stays valid until revoked, its key pair is regenerated or its app is deleted.',
      group: 'registered',
    });
  }
  if (!('jti' in payload)) {
    out.push({
      claim: 'jti',
      value: '(absent)',
      meaning:
        'No token id: an ephemeral token. It cannot be revoked on its own; only regenerating the app’s key pair or deleting the app ends it before it expires.',
      group: 'registered',
    });
  }
  return out;
}

export type TimeVerdict =
  | { state: 'notYetValid'; seconds: number }
  | { state: 'expired'; seconds: number }
  | { state: 'valid'; secondsLeft: number | null };

/**
 * nbf/exp against a clock (the service's, from Service-Server-Time): a token is usable from nbf
 * (inclusive) until exp (exclusive). `secondsLeft` is null for tokens without exp.
 */
export function timeVerdict(payload: JsonObject, nowMs: number): TimeVerdict {
  const now = nowMs / 1000;
  if (typeof payload.nbf === 'number' && now < payload.nbf) return { state: 'notYetValid', seconds: payload.nbf - now };
  if (typeof payload.exp === 'number') {
    if (now >= payload.exp) return { state: 'expired', seconds: now - payload.exp };
    return { state: 'valid', secondsLeft: payload.exp - now };
  }
  return { state: 'valid', secondsLeft: null };
}
