import { isIP } from 'node:net';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { AppKind, AppSettings } from './apps.js';

/** Limits of docs/orgs-and-apps.md#applications, and list sizes that keep a settings record small. */
export const AUTH_DURATION_RANGE = { min: 60, max: 86_400 } as const;
export const MAX_TOKENS_RANGE = { min: 0, max: 100 } as const;
export const MAX_LABEL_LENGTH = 100;
export const MAX_LIST_ITEMS = 100;

const OBJECT_ID = /^[0-9a-f]{24}$/;

const child = (detail: string, path: string, reason: string): FaultBody =>
  makeFault('validation', detail, { path, reason, message: reason });

type Check = (value: unknown, path: string, faults: FaultBody[]) => unknown;

const bool: Check = (v, path, faults) => {
  if (typeof v === 'boolean') return v;
  faults.push(child('invalidType', path, `${path} must be true or false.`));
};

const int =
  (range: { min: number; max: number }): Check =>
  (v, path, faults) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      faults.push(child('invalidType', path, `${path} must be an integer.`));
    } else if (v < range.min || v > range.max) {
      faults.push(child('outOfRange', path, `${path} must be ${range.min}–${range.max}.`));
    } else return v;
  };

const label: Check = (v, path, faults) => {
  if (typeof v !== 'string') return void faults.push(child('invalidType', path, `${path} must be a string.`));
  const trimmed = v.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_LABEL_LENGTH) {
    return void faults.push(child('outOfRange', path, `${path} must be 1–${MAX_LABEL_LENGTH} characters.`));
  }
  return trimmed;
};

/** An ISO date, stored in canonical UTC form; null clears it. */
const expires: Check = (v, path, faults) => {
  if (v === null) return null;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && isRealDay(v) ? Date.parse(v) : NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  faults.push(child('invalidValue', path, `${path} must be an ISO 8601 date or null.`));
};

/** Date.parse rolls impossible days over (2026-02-31 → 2026-03-03); the calendar day must exist. */
function isRealDay(v: string): boolean {
  const [y, m, d] = [Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10))];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const principalId: Check = (v, path, faults) => {
  if (v === null || (typeof v === 'string' && OBJECT_ID.test(v))) return v;
  faults.push(child('invalidValue', path, `${path} must be an account id (24 lower-case hex characters) or null.`));
};

const alg: Check = (v, path, faults) => {
  if (v === 'PS512' || v === 'RS512') return v;
  faults.push(child('invalidValue', path, `${path} must be PS512 or RS512.`));
};

const list =
  (item: (s: string) => boolean, what: string): Check =>
  (v, path, faults) => {
    if (!Array.isArray(v) || v.length > MAX_LIST_ITEMS) {
      return void faults.push(child('invalidType', path, `${path} must be an array of at most ${MAX_LIST_ITEMS}.`));
    }
    const bad = v.findIndex((s) => typeof s !== 'string' || !item(s));
    if (bad >= 0) return void faults.push(child('invalidValue', `${path}[${bad}]`, `${path}[${bad}] must be ${what}.`));
    return [...new Set(v as string[])];
  };

/** `scheme://host[:port]` exactly, as browsers send in the Origin header. */
const isOrigin = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
};

/** An IPv4/IPv6 address, optionally with a CIDR prefix length. */
const isIpOrCidr = (s: string): boolean => {
  const [addr = '', prefix, extra] = s.split('/');
  const family = isIP(addr);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
};

/**
 * An app's name: an identifier (`c_default_app`), never shaped like a key (22 letters and digits),
 * so a name and a key cannot be mistaken for each other; null removes it.
 */
const appName: Check = (v, path, faults) => {
  if (v === null) return null;
  if (typeof v !== 'string' || !/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/.test(v) || /^[A-Za-z0-9]{22}$/.test(v)) {
    return void faults.push(
      child('invalidValue', path, `${path} must be a letter then up to 99 letters, digits, _ . or - (not key-shaped).`),
    );
  }
  return v;
};

const CHECKS: Record<keyof AppSettings, Check> = {
  label,
  enabled: bool,
  readOnly: bool,
  expires,
  authDuration: int(AUTH_DURATION_RANGE),
  csrf: bool,
  allowUnsigned: bool,
  requireSignatureV2: bool,
  principalOverride: bool,
  principalId,
  maxTokensPerPrincipal: int(MAX_TOKENS_RANGE),
  expose: bool,
  alg,
  corsOrigins: list(isOrigin, 'an origin such as https://example.org'),
  ipAllow: list(isIpOrCidr, 'an IP address or CIDR range'),
  ipDeny: list(isIpOrCidr, 'an IP address or CIDR range'),
  name: appName,
  allowNameMapping: bool,
};

/** Settings that only mean something for request signing. */
const SIGNING_ONLY: (keyof AppSettings)[] = ['allowUnsigned', 'principalOverride', 'requireSignatureV2'];

/**
 * Trust boundary: checks a caller's app settings (a POST or PATCH body, or CLI flags). Unknown
 * names, wrong types and values out of range each give one child fault; nothing is returned unless
 * all are valid. `ignore` names body fields the caller handles itself (e.g. `kind`).
 */
export function validateAppSettings(
  body: unknown,
  kind: AppKind,
  ignore: readonly string[] = [],
): Partial<AppSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fault('validation', undefined, { reason: 'The request body must be a JSON object.' });
  }
  const faults: FaultBody[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (ignore.includes(name)) continue;
    if (!Object.hasOwn(CHECKS, name)) {
      faults.push(child('unknownProperty', name, `${name} is not an application setting.`));
      continue;
    }
    const setting = name as keyof AppSettings;
    if (kind === 'session' && SIGNING_ONLY.includes(setting) && value !== false) {
      faults.push(child('invalidValue', name, `${name} applies to signing apps only.`));
      continue;
    }
    const checked = CHECKS[setting](value, name, faults);
    if (checked !== undefined) out[name] = checked;
  }
  if (faults.length > 0)
    throw fault('validation', undefined, { faults, reason: 'The application settings are not valid.' });
  return out as Partial<AppSettings>;
}
