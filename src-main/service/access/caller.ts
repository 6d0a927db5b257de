/**
 * The caller as the access model sees it: one account, every role it holds (included and
 * inherited roles resolved), and what its token adds or limits.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import type { Principal } from './principal.js';
import { resolveRoles } from './roles.js';
import { accountSnapshot, type AccountSnapshot } from './account-snapshot.js';
import { MAX_SHARED_LEVEL } from './levels.js';

export interface Caller {
  accountId: string;
  roles: ReadonlySet<string>;
  /** Org administrators hold admin level (8) on every instance; scopes still limit their tokens. */
  orgAdmin: boolean;
  /** Effective scope chains of a token; undefined = not scope-limited (session, signed request). */
  scopes?: readonly string[];
  /** `service/gnt`, at most 7. */
  grant?: number;
  /** `service/skp`: the ACL does not limit which instances are matched (read and listed). */
  skipAcl: boolean;
  /** `service/skc`: the create ACL is not consulted. */
  bypassCreateAcl: boolean;
  /**
   * `exp` of the token the caller authenticated with (Unix seconds); absent for sessions, signed
   * requests and permanent tokens. A token mints nothing that outlives it (mint-rights.ts), over
   * REST and from scripts alike.
   */
  tokenExpiry?: number;
  /**
   * A caller with no account (an anonymous route run without a principal). It matches no
   * `account` ACL target (not even `*`, which means every logged-in account), owns nothing and
   * may create nothing, so it reads and writes only what is public to it (issue 38 medium 4).
   */
  anonymous?: true;
  /**
   * How the request came, for audit entries of what the caller does (issue 41): set by the HTTP
   * layer (http/context.ts requireCaller); absent for callers scripts and loads make up.
   */
  origin?: CallerOrigin;
}

/** How a caller's request came (its audit entries name it). */
export interface CallerOrigin {
  via: 'session' | 'signature' | 'token' | 'anonymous';
  app?: string;
  jti?: string;
  address?: string;
}

/** The caller of an anonymous route that runs as no one: no account, no roles, no rights. */
export function anonymousCaller(): Caller {
  return { accountId: '', roles: new Set(), orgAdmin: false, skipAcl: false, bypassCreateAcl: false, anonymous: true };
}

/** What authentication established about a request that has a principal. */
export interface CallerInput {
  org: Org;
  principal: Principal;
  scopes?: readonly string[];
  grant?: number;
  skipAcl?: boolean;
  bypassCreateAcl?: boolean;
  tokenExpiry?: number;
}

/** The caller as the access model sees it (http/context.ts requireCaller gets one for a request). */
export function callerOf(svc: Service, input: CallerInput): Caller {
  const { org, principal, scopes, grant, skipAcl, bypassCreateAcl } = input;
  const account = accountSnapshot(svc, org, principal.accountId);
  const roles = rolesOf(svc, org, principal, account);
  const caller: Caller = {
    accountId: principal.accountId,
    roles,
    orgAdmin: roles.has(BUILTIN_ROLES.administrator),
    skipAcl: skipAcl === true,
    bypassCreateAcl: bypassCreateAcl === true,
  };
  if (scopes !== undefined) caller.scopes = scopes;
  if (grant !== undefined) caller.grant = Math.min(grant, MAX_SHARED_LEVEL);
  if (input.tokenExpiry !== undefined) caller.tokenExpiry = input.tokenExpiry;
  return caller;
}

/**
 * Roles resolved for an account's snapshot with the principal's own list. A snapshot object lives
 * for one data version, as the role graph's resolution does (both caches empty on any write), so
 * the same snapshot and the same principal list resolve the same: kept beside the snapshot, they
 * spare each request building, sorting and hashing the role-graph cache's key.
 */
const resolvedRoles = new WeakMap<AccountSnapshot, { principalRoles: readonly string[]; roles: ReadonlySet<string> }>();

function rolesOf(
  svc: Service,
  org: Org,
  principal: Principal,
  account: AccountSnapshot | undefined,
): ReadonlySet<string> {
  const kept = account && resolvedRoles.get(account);
  if (kept !== undefined && kept.principalRoles === principal.roles) return kept.roles;
  const held = [...principal.roles, ...(account?.roles ?? []), ...(account?.inheritedRoles ?? [])];
  const roles = resolveRoles(svc, org, held).roleSet;
  if (account) resolvedRoles.set(account, { principalRoles: principal.roles, roles });
  return roles;
}
