/**
 * Trust boundary: the body of `POST /accounts/:id/tokens` (docs/tokens.md). Everything is checked
 * here, before any key is touched; the route's JSON schema only guards types and unknown keys.
 */
import { fault } from '../../../../src-shared/faults.js';
import { validateScopes } from '../../../../src-shared/scopes/index.js';
import { OBJECT_ID_PATTERN } from '../../objects/ids.js';
import { MAX_GRANT } from './token-claims.js';

/** Ten years: longer-lived tokens should be permanent (and so revocable), not merely long. */
export const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;
/** An upper bound for `maxUses`; `service/cnt` counts authentications, not a budget to hoard. */
export const MAX_USES = 1_000_000;
export const MAX_TOKEN_ROLES = 50;

export interface TokenRequest {
  appKey: string;
  scope: string[];
  roles: string[];
  /** Seconds; undefined = the app's authDuration. */
  expiresIn?: number;
  /** When the token becomes usable, as an offset from now (seconds)… */
  activatesIn?: number;
  /** …or as an absolute time (Unix seconds). */
  validAt?: number;
  permanent: boolean;
  maxUses?: number;
  grant?: number;
  skipAcl: boolean;
  bypassCreateAcl: boolean;
  /** Adds `service/eml` (the subject's email), which the original's client requires (§B). */
  includeEmail: boolean;
}

/** Every key the body may have; anything else is refused, not ignored (a typo must not widen a token). */
const KNOWN_KEYS = new Set([
  'app',
  'scope',
  'roles',
  'expiresIn',
  'activatesIn',
  'validAt',
  'permanent',
  'maxUses',
  'grant',
  'skipAcl',
  'bypassCreateAcl',
  'includeEmail',
]);

const bad = (path: string, reason: string) => fault('invalidArgument', undefined, { path, reason });

/**
 * Checks the body by hand rather than through the route's JSON schema: Fastify's validator coerces
 * types and drops unknown keys by default, and neither is acceptable for what a token may do.
 */
export function parseTokenRequest(raw: unknown): TokenRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('', 'The body must be a JSON object.');
  const body = raw as Record<string, unknown>;
  const unknown = Object.keys(body).find((key) => !KNOWN_KEYS.has(key));
  if (unknown !== undefined) throw bad(unknown, `Unknown token option ${unknown.slice(0, 64)}.`);
  if (typeof body.app !== 'string' || body.app === '') throw bad('app', 'app must be the key of an application.');
  const scope = validateScopes(body.scope);
  const roles = body.roles ?? [];
  if (!Array.isArray(roles) || roles.length > MAX_TOKEN_ROLES)
    throw bad('roles', `roles must be an array of at most ${MAX_TOKEN_ROLES} role ids.`);
  roles.forEach((role: unknown, index) => {
    if (typeof role !== 'string' || !OBJECT_ID_PATTERN.test(role))
      throw bad(`roles[${index}]`, 'Role ids are 24 lower-case hex characters.');
  });
  const permanent = flag(body, 'permanent');
  const expiresIn = integerIn(body.expiresIn, 'expiresIn', 1, MAX_LIFETIME_SECONDS);
  const activatesIn = integerIn(body.activatesIn, 'activatesIn', 0, MAX_LIFETIME_SECONDS);
  const validAt = body.validAt === undefined ? undefined : unixSeconds(body.validAt);
  if (activatesIn !== undefined && validAt !== undefined)
    throw bad('validAt', 'activatesIn and validAt exclude each other: give one.');
  if (permanent && (activatesIn !== undefined || validAt !== undefined))
    throw bad('permanent', 'A permanent token is valid at once: activatesIn and validAt do not apply.');
  if (permanent && expiresIn !== undefined) throw bad('expiresIn', 'A permanent token does not expire.');
  const maxUses = integerIn(body.maxUses, 'maxUses', 1, MAX_USES);
  const grant = integerIn(body.grant, 'grant', 1, MAX_GRANT);
  return {
    appKey: body.app,
    scope,
    roles: [...new Set(roles as string[])],
    permanent,
    skipAcl: flag(body, 'skipAcl'),
    bypassCreateAcl: flag(body, 'bypassCreateAcl'),
    includeEmail: flag(body, 'includeEmail'),
    ...(expiresIn !== undefined ? { expiresIn } : {}),
    ...(activatesIn !== undefined ? { activatesIn } : {}),
    ...(validAt !== undefined ? { validAt } : {}),
    ...(maxUses !== undefined ? { maxUses } : {}),
    ...(grant !== undefined ? { grant } : {}),
  };
}

function flag(body: Record<string, unknown>, key: string): boolean {
  const value = body[key] ?? false;
  if (typeof value !== 'boolean') throw bad(key, `${key} must be true or false.`);
  return value;
}

function integerIn(value: unknown, path: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw bad(path, `${path} must be an integer from ${min} to ${max}.`);
  return value;
}

/** `validAt`: Unix seconds, or an ISO 8601 date-time with a zone. */
function unixSeconds(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  throw bad('validAt', 'validAt must be Unix seconds or an ISO 8601 date-time with a time zone.');
}
