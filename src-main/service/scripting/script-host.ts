/**
 * Runs a script for a caller of the service: builds what the script sees (`script.principal`,
 * `script.env`, `script.org`, `require('request')`) and the host functions it may call, all acting
 * as the caller (or as the principal `script.as` switched to). Used by the ad-hoc runner and the
 * script routes; nothing here knows HTTP.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { orgAudience } from '../auth/tokens/token-claims.js';
import type { HostCallContext, HostFunctions, RunResult } from './run-types.js';
import type { ScriptRequest } from './protocol.js';
import { limitsForOrg } from './org-limits.js';
import { requestHost, tokenHost } from './host-tokens.js';
import { driverHost } from './host-driver.js';
import { readOnlyHost } from './read-only-host.js';
import { guardedHost, ScriptAs, scriptPrincipal } from './script-as.js';

export { scriptPrincipal, type ScriptPrincipal } from './script-as.js';

export interface ScriptInvocation {
  org: Org;
  /** Who runs the script (the caller, or a route's configured principal). */
  caller: Caller;
  source: string;
  arguments?: unknown;
  request?: ScriptRequest;
  /** Host functions beside the data ones (routes: the response functions). */
  extraHost?: HostFunctions;
  /** The request came through a read-only app: the script's writes are refused (read-only-host.ts). */
  readOnly?: boolean;
  /**
   * Who asked, for the fair queue (run-queue.ts): the requesting account's id, or `ip:<address>`
   * for an anonymous request. Default: the caller's account.
   */
  requester?: string;
}

export interface ScriptHostOptions {
  extra?: HostFunctions;
  readOnly?: boolean;
}

/**
 * The host functions of a run for `caller`: the driver and the token functions acting as the
 * caller or as the `script.as` principal (script-as.ts), `as` itself, and `extra`; every call made
 * inside `script.as` passes that script.as's `acl` and `modules` rules first.
 */
export function scriptHost(svc: Service, org: Org, caller: Caller, options: ScriptHostOptions = {}): HostFunctions {
  const as = new ScriptAs(svc, org, caller);
  const callerFor = (call: HostCallContext) => as.callerOf(call.asPrincipal);
  const data: HostFunctions = {
    // Driver options (skipAcl, grant) count only where the principal holds them, or inside a
    // script.as with `acl.safe: false` run by a caller who could use them itself.
    driver: driverHost(svc, org, caller, {
      callerFor: (asPrincipal) => as.callerOf(asPrincipal),
      trustedFor: (asPrincipal) => as.grantOf(asPrincipal)?.acl.options === 'trusted',
    }),
    ...tokenHost(svc, org, caller, callerFor),
    as(this: HostCallContext, who: unknown, opts: unknown) {
      return as.enter(this, who, opts);
    },
  };
  const aliasesOf = (object: string) => {
    const def = svc.defs.byName(org.id, object) ?? svc.defs.byCollection(org.id, object);
    return def ? [object, def.name, def.collection] : [object];
  };
  return guardedHost(as, { ...(options.readOnly ? readOnlyHost(data) : data), ...options.extra }, aliasesOf);
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
    host: scriptHost(svc, org, caller, { extra: inv.extraHost, readOnly: inv.readOnly }),
    limits: limitsForOrg(org),
    queue: { org: String(org.id), caller: inv.requester ?? caller.accountId },
  });
}
