import { fault } from '../../../src-shared/faults.js';
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

/**
 * The original's `configuration.scripting.maxJobRunsPerDay` as the env provisioning sets it (its
 * config defaults are not in the sources we can read; docs/scripting.md#jobs).
 */
export const DEFAULT_JOB_RUNS_PER_DAY = 1000;
/** The floor (the original's `sandbox.limits.minAllowedJobRunsPerDay`): an hourly job always fits. */
export const MIN_ALLOWED_JOB_RUNS_PER_DAY = 24;
/** The most an operator may allow one org (a hundred jobs a minute would be 144,000). */
export const MAX_JOB_RUNS_PER_DAY = 100_000;

/**
 * How many job runs the org may start in any 24 hours: `scriptLimits.maxJobRunsPerDay`, which only
 * the operator sets (`npm run admin -- org set maxJobRunsPerDay N`; like every sandbox limit, an
 * org administrator cannot, so no org takes the service's workers from others), never below the
 * floor nor above the ceiling; absent or unreadable, the default.
 */
export function jobRunsPerDayOf(org: Org): number {
  const value = org.settings.scriptLimits?.maxJobRunsPerDay;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return DEFAULT_JOB_RUNS_PER_DAY;
  return Math.min(MAX_JOB_RUNS_PER_DAY, Math.max(MIN_ALLOWED_JOB_RUNS_PER_DAY, value));
}

/**
 * Trust boundary: the operator's `org set maxJobRunsPerDay VALUE` (docs/cli.md). An integer from the
 * floor to the ceiling, else a validation fault naming the setting; answers the org's new
 * `scriptLimits` from its stored `settings`, the other limits kept.
 */
export function withJobRunsPerDay(settings: Org['settings'], raw: string): Record<string, number> {
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= MIN_ALLOWED_JOB_RUNS_PER_DAY && value <= MAX_JOB_RUNS_PER_DAY)) {
    throw fault('validation', 'outOfRange', {
      path: 'maxJobRunsPerDay',
      reason: `maxJobRunsPerDay must be an integer ${MIN_ALLOWED_JOB_RUNS_PER_DAY}–${MAX_JOB_RUNS_PER_DAY}.`,
    });
  }
  return { ...settings.scriptLimits, maxJobRunsPerDay: value };
}
