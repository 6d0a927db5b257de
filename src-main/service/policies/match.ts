/**
 * Whether a policy applies to a request: the original's matchers (methods, paths, IP, app and acl
 * white- and blacklists), combined by the policy's `condition` (docs/scripting.md#policies).
 * A policy with no matcher applies to nothing, as there. Pure functions of plain values.
 */
import type { PolicyDef } from './policy-def.js';
import { inRanges } from './patterns.js';

/** What the matchers read of a request; built once per request by the HTTP gate. */
export interface RequestFacts {
  /** Lower case; HEAD counts as get (it runs the GET route). */
  method: string;
  /** The path inside the org's API (`/routes/x`), each segment decoded once, no query. */
  path: string;
  ip: string;
  /** The app's key, name and id, when the request came through one. */
  app?: { key: string; name: string; id: string };
  /** `anonymous`, `account.public`, `account.<id>` and `role.<id>` entries the caller holds. */
  principal?: { accountId: string; roleIds: ReadonlySet<string> };
  /** Resolves an acl's role names to ids (only called when a policy has an acl list). */
  resolveAcl: (acl: string[]) => string[];
}

type Matcher = [name: string, enabled: (p: PolicyDef) => boolean, triggers: (p: PolicyDef, r: RequestFacts) => boolean];

const appIs = (list: string[], r: RequestFacts) =>
  r.app !== undefined && list.some((v) => v === r.app?.key || v === r.app?.name || v === r.app?.id);

/** True when the caller is admitted by one entry of `acl` (as a route's acl admits it). */
function aclAdmits(acl: string[], r: RequestFacts): boolean {
  const p = r.principal;
  return r.resolveAcl(acl).some((entry) => {
    if (entry === 'anonymous' || entry === '*') return true;
    if (!p) return false;
    if (entry === 'account.public') return true;
    if (entry.startsWith('account.')) return entry.slice(8).toLowerCase() === p.accountId;
    if (entry.startsWith('role.')) return p.roleIds.has(entry.slice(5).toLowerCase());
    return false;
  });
}

const MATCHERS: Matcher[] = [
  ['methods', (p) => p.methods.length > 0, (p, r) => p.methods.includes(r.method)],
  ['paths', (p) => p.paths !== undefined, (p, r) => p.paths?.test(r.path) === true],
  ['ipWhitelist', (p) => p.ipWhitelist.length > 0, (p, r) => !inRanges(r.ip, p.ipWhitelist)],
  ['ipBlacklist', (p) => p.ipBlacklist.length > 0, (p, r) => inRanges(r.ip, p.ipBlacklist)],
  ['appWhitelist', (p) => p.appWhitelist.length > 0, (p, r) => !appIs(p.appWhitelist, r)],
  ['appBlacklist', (p) => p.appBlacklist.length > 0, (p, r) => appIs(p.appBlacklist, r)],
  ['aclWhitelist', (p) => p.aclWhitelist.length > 0, (p, r) => !aclAdmits(p.aclWhitelist, r)],
  ['aclBlacklist', (p) => p.aclBlacklist.length > 0, (p, r) => aclAdmits(p.aclBlacklist, r)],
];

/**
 * The names of the matchers that made the policy apply (empty: it does not apply). `and`: every
 * matcher it has must hold; `or`: the first that holds is enough.
 */
export function triggeredBy(policy: PolicyDef, request: RequestFacts): string[] {
  const enabled = MATCHERS.filter(([, on]) => on(policy));
  if (policy.condition === 'or') {
    const hit = enabled.find(([, , triggers]) => triggers(policy, request));
    return hit ? [hit[0]] : [];
  }
  for (const [, , triggers] of enabled) if (!triggers(policy, request)) return [];
  return enabled.map(([name]) => name);
}
