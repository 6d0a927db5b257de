/**
 * The mint form as pure functions: the options of `POST /accounts/:id/tokens` (docs/tokens.md)
 * with live scope-chain validation (the shared parser the service uses) and the exclusions the
 * service enforces — `activatesIn` and `validAt` exclude each other and `permanent`, and a
 * permanent token has no `expiresIn` — made impossible in the form rather than reported after.
 */
import {
  MAX_CHAINS_PER_TOKEN,
  chainSchemaProblem,
  parseScopeChain,
  validateScopes,
  type ScopeSchemaType,
} from '../../../src-shared/scopes';
import type { MintRequest } from '../../api/tokens';
import { fromUtcInput } from '../../components/utc-time';

export const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;
export const MAX_USES = 1_000_000;
export const MAX_GRANT = 7;
export const MAX_ROLES = 50;

export const TIME_UNITS = { s: 1, min: 60, h: 3600, d: 86_400 } as const;
export type TimeUnit = keyof typeof TIME_UNITS;

/** When the token starts to work: now, after a delay (`activatesIn`), or at a date (`validAt`). */
export type StartMode = 'now' | 'activatesIn' | 'validAt';
/** When it stops: after the app's authDuration, after `expiresIn`, or never (`permanent`). */
export type ExpiryMode = 'default' | 'expiresIn' | 'permanent';

export interface MintDraft {
  /** One scope chain per line. */
  scopeText: string;
  /** Role ids, one per line (or comma-separated). */
  rolesText: string;
  start: StartMode;
  activatesIn: string;
  activatesUnit: TimeUnit;
  /** `datetime-local` value, read as UTC. */
  validAt: string;
  expiry: ExpiryMode;
  expiresIn: string;
  expiresUnit: TimeUnit;
  /** '' = unlimited. */
  maxUses: string;
  /** '' = none, else '1'…'7'. */
  grant: string;
  skipAcl: boolean;
  bypassCreateAcl: boolean;
}

export function emptyMintDraft(): MintDraft {
  return {
    // Empty, not `*`: a token gets what its chains say, and full access must be asked for.
    scopeText: '',
    rolesText: '',
    start: 'now',
    activatesIn: '5',
    activatesUnit: 'min',
    validAt: '',
    expiry: 'default',
    expiresIn: '1',
    expiresUnit: 'h',
    maxUses: '',
    grant: '',
    skipAcl: false,
    bypassCreateAcl: false,
  };
}

/** Which choices the current draft leaves open: the form disables the others. */
export function mintExclusions(draft: MintDraft): { delayedStartAllowed: boolean; permanentAllowed: boolean } {
  return { delayedStartAllowed: draft.expiry !== 'permanent', permanentAllowed: draft.start === 'now' };
}

/**
 * Applies one change and restores the exclusions: choosing `permanent` resets a delayed start to
 * "now", choosing a delayed start turns `permanent` back to the default expiry. The form disables
 * those choices anyway; this keeps a draft from ever holding both (keyboard, tests, old state).
 */
export function updateMintDraft(draft: MintDraft, change: Partial<MintDraft>): MintDraft {
  const next = { ...draft, ...change };
  if (change.expiry === 'permanent') next.start = 'now';
  else if (change.start !== undefined && change.start !== 'now' && next.expiry === 'permanent') next.expiry = 'default';
  else if (next.expiry === 'permanent' && next.start !== 'now') next.start = 'now';
  return next;
}

export interface ChainCheck {
  /** 1-based line of the scope text. */
  line: number;
  text: string;
  ok: boolean;
  reason?: string;
  /** 0-based character of the chain where it went wrong. */
  position?: number;
}

export function scopeLines(text: string): { line: number; text: string }[] {
  return text
    .split('\n')
    .map((raw, index) => ({ line: index + 1, text: raw.trim() }))
    .filter((entry) => entry.text !== '');
}

/**
 * Each chain checked by the shared parser and, given the org's object types, by the shared schema
 * rule — as the service will check it, so a chain passing here can grant something.
 */
export function checkScopeChains(text: string, types?: readonly ScopeSchemaType[]): ChainCheck[] {
  return scopeLines(text).map(({ line, text: chain }) => {
    const parsed = parseScopeChain(chain);
    if (!parsed.ok) return { line, text: chain, ok: false, reason: parsed.reason, position: parsed.position };
    const problem = types ? chainSchemaProblem(chain, types) : undefined;
    return problem === undefined
      ? { line, text: chain, ok: true }
      : { line, text: chain, ok: false, reason: `can grant nothing: ${problem}` };
  });
}

export type MintField = 'scope' | 'roles' | 'activatesIn' | 'validAt' | 'expiresIn' | 'maxUses' | 'grant';
export type MintErrors = Partial<Record<MintField, string>>;

export interface MintCheck {
  errors: MintErrors;
  chains: ChainCheck[];
  /** The request body, when the draft is valid. */
  request?: MintRequest;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

function whole(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d{1,12}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** A positive span in seconds within the service's limits, or an error in words. */
function span(value: string, unit: TimeUnit, min: number): number | string {
  const n = whole(value);
  if (n === undefined) return 'A whole number.';
  const seconds = n * TIME_UNITS[unit];
  if (seconds < min) return min === 0 ? 'Zero or more.' : 'At least one second.';
  if (seconds > MAX_LIFETIME_SECONDS) return 'At most ten years: longer-lived tokens should be permanent (revocable).';
  return seconds;
}

/** Validates the draft and builds the request body; `nowMs` is the clock `validAt` is judged by. */
export function checkMintDraft(
  draft: MintDraft,
  appKey: string,
  nowMs: number,
  types?: readonly ScopeSchemaType[],
): MintCheck {
  const errors: MintErrors = {};
  const chains = checkScopeChains(draft.scopeText, types);
  const scope = chains.map((c) => c.text);
  const bad = chains.find((c) => !c.ok);
  if (bad) errors.scope = `Line ${bad.line}: ${bad.reason ?? 'not a valid scope chain'}.`;
  else if (scope.length > MAX_CHAINS_PER_TOKEN) errors.scope = `At most ${MAX_CHAINS_PER_TOKEN} chains.`;
  else {
    try {
      validateScopes(scope);
    } catch (error) {
      errors.scope = (error as { reason?: string }).reason ?? 'The scope is not valid.';
    }
  }

  const roles = [
    ...new Set(
      draft.rolesText
        .split(/[\n,]/)
        .map((r) => r.trim().toLowerCase())
        .filter((r) => r !== ''),
    ),
  ];
  const badRole = roles.find((r) => !OBJECT_ID.test(r));
  if (badRole !== undefined) errors.roles = `“${badRole}” is not a role id (24 hex characters).`;
  else if (roles.length > MAX_ROLES) errors.roles = `At most ${MAX_ROLES} roles.`;

  const request: MintRequest = { app: appKey, scope };
  if (roles.length > 0) request.roles = roles;

  // The exclusions: a permanent token starts now and never expires.
  const permanent = draft.expiry === 'permanent';
  const start = permanent ? 'now' : draft.start;
  if (start === 'activatesIn') {
    const seconds = span(draft.activatesIn, draft.activatesUnit, 0);
    if (typeof seconds === 'string') errors.activatesIn = seconds;
    else request.activatesIn = seconds;
  } else if (start === 'validAt') {
    const iso = fromUtcInput(draft.validAt);
    if (iso === null) errors.validAt = 'Pick a date and time.';
    else request.validAt = Math.floor(Date.parse(iso) / 1000);
    if (iso !== null && Date.parse(iso) > nowMs + MAX_LIFETIME_SECONDS * 1000)
      errors.validAt = 'At most ten years ahead.';
  }
  if (permanent) request.permanent = true;
  else if (draft.expiry === 'expiresIn') {
    const seconds = span(draft.expiresIn, draft.expiresUnit, 1);
    if (typeof seconds === 'string') errors.expiresIn = seconds;
    else request.expiresIn = seconds;
  }

  if (draft.maxUses.trim() !== '') {
    const uses = whole(draft.maxUses);
    if (uses === undefined || uses < 1 || uses > MAX_USES)
      errors.maxUses = `A whole number from 1 to ${MAX_USES.toLocaleString('en')}, or empty for unlimited.`;
    else request.maxUses = uses;
  }
  if (draft.grant !== '') {
    const grant = whole(draft.grant);
    if (grant === undefined || grant < 1 || grant > MAX_GRANT) errors.grant = `A level from 1 to ${MAX_GRANT}.`;
    else request.grant = grant;
  }
  if (draft.skipAcl) request.skipAcl = true;
  if (draft.bypassCreateAcl) request.bypassCreateAcl = true;

  return Object.keys(errors).length === 0 ? { errors, chains, request } : { errors, chains };
}

/** The form field a service fault names (`scope[2]` → scope, `roles[0]` → roles). */
export function mintFieldOfPath(path: string | undefined): MintField | undefined {
  if (path === undefined) return undefined;
  const name = path.replace(/\[\d+\]$/, '');
  const fields: readonly string[] = ['scope', 'roles', 'activatesIn', 'validAt', 'expiresIn', 'maxUses', 'grant'];
  if (name === 'permanent') return 'validAt';
  return fields.includes(name) ? (name as MintField) : undefined;
}

/** Whether the token this request mints is stored (and so listed and revocable): it has a jti. */
export function isStoredToken(request: MintRequest): boolean {
  return request.permanent === true || request.maxUses !== undefined;
}
