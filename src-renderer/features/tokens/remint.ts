/**
 * "Edit and re-mint": the mint form filled from a decoded token's claims, so a token can be made
 * again with one thing changed. The claims are read, not trusted: anything of the wrong shape is
 * left at the form's default and the service checks the new request as it checks any other.
 */
import { CLAIM } from '../../../src-shared/contracts/tokens';
import type { JsonObject } from './claims';
import { TIME_UNITS, emptyMintDraft, type MintDraft, type TimeUnit } from './mint-form';

export interface Remint {
  draft: MintDraft;
  /** `sub`, when it is an account `_id`. */
  account?: string;
  /** `iss`, the issuing app's key. */
  app?: string;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;
const APP_KEY = /^[A-Za-z0-9]{1,64}$/;

const seconds = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A span in the largest unit that divides it (90 min stays minutes, 86,400 s is 1 d). */
export function spanOf(total: number): { value: string; unit: TimeUnit } {
  const units = Object.entries(TIME_UNITS).sort((a, b) => b[1] - a[1]) as [TimeUnit, number][];
  for (const [unit, size] of units) {
    if (total > 0 && total % size === 0) return { value: String(total / size), unit };
  }
  return { value: String(total), unit: 's' };
}

export function remintFromClaims(payload: JsonObject): Remint {
  const draft = emptyMintDraft();
  draft.scopeText = strings(payload[CLAIM.scope]).join('\n');
  draft.rolesText = strings(payload[CLAIM.roles]).join('\n');
  const uses = seconds(payload[CLAIM.maxUses]);
  if (uses !== undefined && uses > 0) draft.maxUses = String(uses);
  const grant = seconds(payload[CLAIM.grant]);
  if (grant !== undefined && grant >= 1 && grant <= 7) draft.grant = String(grant);
  draft.skipAcl = payload[CLAIM.skipAcl] === true;
  draft.bypassCreateAcl = payload[CLAIM.bypassCreateAcl] === true;

  // Times are kept as spans: a re-mint starts its own clock, with the same delay and lifetime.
  const issued = seconds(payload.iat);
  const notBefore = seconds(payload.nbf);
  const expires = seconds(payload.exp);
  const start = notBefore !== undefined && issued !== undefined && notBefore > issued ? notBefore : issued;
  if (start !== undefined && issued !== undefined && start > issued) {
    const delay = spanOf(start - issued);
    draft.start = 'activatesIn';
    draft.activatesIn = delay.value;
    draft.activatesUnit = delay.unit;
  }
  if (expires === undefined) {
    // No exp: a permanent token (which starts now).
    draft.expiry = 'permanent';
    draft.start = 'now';
  } else if (start !== undefined && expires > start) {
    const lifetime = spanOf(expires - start);
    draft.expiry = 'expiresIn';
    draft.expiresIn = lifetime.value;
    draft.expiresUnit = lifetime.unit;
  }

  const out: Remint = { draft };
  if (typeof payload.sub === 'string' && OBJECT_ID.test(payload.sub)) out.account = payload.sub.toLowerCase();
  if (typeof payload.iss === 'string' && APP_KEY.test(payload.iss)) out.app = payload.iss;
  return out;
}
