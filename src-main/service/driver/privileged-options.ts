/**
 * The privileged driver options — `skipAcl`, `grant` and `roles` — and the caller they leave:
 * honoured only where the caller already holds that privilege (docs/driver.md).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { resolveRoles } from '../access/roles.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { ACCESS, MAX_SHARED_LEVEL } from '../access/levels.js';
import type { Caller } from '../access/caller.js';
import type { DriverContext, Options } from './operation.js';

const LEVEL_NAMES: Record<string, number> = ACCESS;

/**
 * `skipAcl`, `grant` and `roles` in the options widen what the caller reaches, so they are dropped
 * silently (§A) unless the caller already holds that privilege: an org administrator, or a token
 * carrying the matching claim (`service/skp` for skipAcl, `service/gnt` for grant — never above
 * the token's own grant — and `service/rls` for roles). An option never confers org administration
 * (the administrator role is not added by `roles`) and never grants above script level (7).
 */
export function effectiveCaller(svc: Service, org: Org, caller: Caller, opts: Options, context: DriverContext): Caller {
  const trusted = context.trustedOptions === true || caller.orgAdmin;
  let out = caller;
  if (opts.skipAcl === true && (trusted || caller.skipAcl)) out = { ...out, skipAcl: true };
  const grant = grantLevel(opts.grant);
  if (grant !== undefined && (trusted || caller.grant !== undefined)) {
    const ceiling = trusted ? MAX_SHARED_LEVEL : (caller.grant ?? 0);
    const level = Math.min(grant, ceiling);
    if (level > (out.grant ?? 0)) out = { ...out, grant: level };
  }
  if (Array.isArray(opts.roles) && (trusted || context.tokenRoles === true)) {
    const extra = opts.roles.filter(
      (r): r is string => typeof r === 'string' && OBJECT_ID_PATTERN.test(r) && r !== BUILTIN_ROLES.administrator,
    );
    if (extra.length > 0) {
      const roles = new Set(resolveRoles(svc, org, [...caller.roles, ...extra]).roleSet);
      if (!caller.orgAdmin) roles.delete(BUILTIN_ROLES.administrator);
      out = { ...out, roles };
    }
  }
  return out;
}

function grantLevel(value: unknown): number | undefined {
  const level = typeof value === 'string' ? LEVEL_NAMES[value] : value;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < ACCESS.public) return undefined;
  return Math.min(level, MAX_SHARED_LEVEL);
}
