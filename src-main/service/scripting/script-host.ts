/**
 * Runs a script for a caller of the service: builds what the script sees (`script.principal`,
 * `script.env`, `script.org`, `require('request')`) and the host functions it may call, all acting
 * as the caller (or as the principal `script.as` switched to). Used by the ad-hoc runner and the
 * script routes; nothing here knows HTTP.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { callerOf, type Caller } from '../access/caller.js';
import { orgAudience } from '../auth/tokens/token-claims.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { normaliseEmail } from '../accounts/credentials.js';
import type { HostCallContext, HostFunctions, RunResult } from './run-types.js';
import type { ScriptRequest } from './protocol.js';
import { limitsForOrg } from './org-limits.js';
import { requestHost, tokenHost } from './host-tokens.js';
import { driverHost } from './host-driver.js';

/** `script.principal` as the original exposes it. */
export interface ScriptPrincipal {
  _id: string;
  email: string;
  name: unknown;
  roles: string[];
}

export interface ScriptInvocation {
  org: Org;
  /** Who runs the script (the caller, or a route's configured principal). */
  caller: Caller;
  source: string;
  arguments?: unknown;
  request?: ScriptRequest;
  /** Host functions (default: scriptHost for the caller); routes add their response functions. */
  host?: HostFunctions;
}

/** The principal for `script.principal`, or undefined when the account does not exist. */
export function scriptPrincipal(svc: Service, org: Org, accountId: string): ScriptPrincipal | undefined {
  const def = svc.defs.byName(org.id, 'account');
  const record = def && OBJECT_ID_PATTERN.test(accountId) ? svc.store.get(org.id, def, accountId) : undefined;
  if (!record) return undefined;
  const roles = record.doc.roles;
  return {
    _id: record._id,
    email: String(record.doc.email ?? ''),
    name: record.doc.name ?? null,
    roles: Array.isArray(roles) ? roles.map(String) : [],
  };
}

/** Finds an account by `_id`, email, or `{_id}` / `{email}` (the forms `script.as` accepts). */
function findAccountId(svc: Service, org: Org, who: unknown): string | undefined {
  const key =
    typeof who === 'object' && who !== null
      ? ((who as { _id?: unknown; email?: unknown })._id ?? (who as { email?: unknown }).email)
      : who;
  if (typeof key !== 'string' || key === '') return undefined;
  if (OBJECT_ID_PATTERN.test(key.toLowerCase())) return scriptPrincipal(svc, org, key.toLowerCase())?._id;
  return svc.credentials.byEmail(org.id, normaliseEmail(key))?.account_id;
}

/** What `script.as` hands back (and later host calls carry as `this.asPrincipal`). */
interface AsPrincipal extends ScriptPrincipal {
  skipAcl: boolean;
}

/**
 * The caller a host call acts as: the run's caller, or inside `script.as` the account switched to.
 * Acting as someone never widens what the run's caller may do: a token's scope list and lifetime
 * limit the account switched to, the ACL is skipped only when `as` was asked to and a token may
 * skip it itself, and the token's grant and bypassCreateAcl are not carried over.
 */
function callerForAs(svc: Service, org: Org, base: Caller, as: AsPrincipal): Caller {
  return callerOf(svc, {
    org,
    principal: { accountId: as._id, email: as.email, roles: [] },
    ...(base.scopes === undefined ? {} : { scopes: base.scopes }),
    ...(base.tokenExpiry === undefined ? {} : { tokenExpiry: base.tokenExpiry }),
    skipAcl: as.skipAcl && (base.scopes === undefined || base.skipAcl),
  });
}

export function scriptHost(svc: Service, org: Org, caller: Caller): HostFunctions {
  // What this host's `as` handed out, as JSON. The script holds the object (it is script.principal)
  // and sends it back with each host call, so a changed one (another _id, skipAcl) is refused.
  const issued = new Set<string>();
  const asCaller = (asPrincipal: unknown): Caller => {
    if (asPrincipal === undefined || asPrincipal === null) return caller;
    if (!issued.has(JSON.stringify(asPrincipal))) {
      throw fault('accessDenied', 'script.as', { reason: 'The principal is not one script.as returned.' });
    }
    return callerForAs(svc, org, caller, asPrincipal as AsPrincipal);
  };
  const callerFor = (call: HostCallContext) => asCaller(call.asPrincipal);
  return {
    // Driver options (skipAcl, grant) count only where the principal holds them: no trustedOptions.
    driver: driverHost(svc, org, caller, { callerFor: asCaller }),
    ...tokenHost(svc, org, caller, callerFor),
    as(this: HostCallContext, who: unknown, options: unknown) {
      // Only org administrators may act as someone else. A token needs what acting for another
      // account needs over REST (minting its tokens): admin.update; admin.read only reads.
      const current = callerFor(this);
      if (!current.orgAdmin) {
        throw fault('accessDenied', 'principal', { reason: 'Only org administrators may use script.as.' });
      }
      if (current.scopes !== undefined) {
        const decision = checkScope(current.scopes, { kind: 'admin', action: 'update' });
        if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
      }
      const accountId = findAccountId(svc, org, who);
      const principal = accountId ? scriptPrincipal(svc, org, accountId) : undefined;
      if (!principal) throw fault('notFound', 'instance', { reason: 'script.as: no such account.' });
      const opts = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      const skip =
        opts.skipAcl === true ||
        (typeof opts.acl === 'object' && opts.acl !== null && (opts.acl as Record<string, unknown>).safe === false);
      const result: AsPrincipal = { ...principal, skipAcl: skip };
      issued.add(JSON.stringify(result));
      return result;
    },
  };
}

/** Runs `source` for the invocation's caller with the org's limits. */
export async function runScriptFor(svc: Service, inv: ScriptInvocation): Promise<RunResult> {
  const { org, caller } = inv;
  const principal = scriptPrincipal(svc, org, caller.accountId);
  return svc.scripts.run({
    source: inv.source,
    context: {
      arguments: inv.arguments ?? {},
      principal: principal ?? null,
      // The org's base URL as the caller called it, port included, like a token's `aud`.
      env: { url: orgAudience(org.code, requestHost(inv.request)) },
      org: { _id: String(org.id), code: org.code },
      ...(inv.request ? { request: inv.request } : {}),
    },
    host: inv.host ?? scriptHost(svc, org, caller),
    limits: limitsForOrg(org),
  });
}
