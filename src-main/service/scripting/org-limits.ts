import type { Org } from '../orgs/orgs.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './limits.js';

/**
 * The org's overrides of the sandbox limits (org setting `scriptLimits`, numbers by limit name);
 * unknown names and non-positive values are ignored, so a bad setting never disables a limit.
 */
export function limitsForOrg(org: Org): Partial<ScriptLimits> {
  const raw = org.settings.scriptLimits;
  const limits: Partial<ScriptLimits> = {};
  if (!raw) return limits;
  for (const key of Object.keys(DEFAULT_SCRIPT_LIMITS) as (keyof ScriptLimits)[]) {
    const value = raw[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = value;
  }
  return limits;
}
