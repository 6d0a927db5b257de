/**
 * Runs a script for a caller of the service: builds what the script sees (`script.principal`,
 * `script.env`, `script.org`, `require('request')`) and the host functions it may call, all acting
 * as the caller (or as the principal `script.as` switched to). Used by the ad-hoc runner and the
 * script routes; nothing here knows HTTP.
 */
import { makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { orgAudience } from '../auth/tokens/token-claims.js';
import type { HostCallContext, HostFunctions, RunResult } from './run-types.js';
import type { ScriptRequest, TriggerRunContext } from './protocol.js';
import { limitsForOrg } from './org-limits.js';
import { DEFAULT_SCRIPT_LIMITS } from './limits.js';
import { requestHost, tokenHost } from './host-tokens.js';
import { driverHost } from './host-driver.js';
import { readOnlyHost } from './read-only-host.js';
import { guardedHost, ScriptAs, scriptPrincipal } from './script-as.js';
import { libraryHost } from './host-library.js';
import { extraHost } from './host-extras.js';
import { moduleHost } from './host-modules.js';
import { httpHost } from './host-http.js';
import { developerHost } from './host-developer.js';
import { apiHost } from './host-api.js';
import { scriptConsts } from './script-consts.js';
import { compileScript } from './language/compiled-cache.js';
import { refused } from './run-types.js';
import { writeRunLog, type RunLogMeta } from '../logs/run-log.js';
import { currentHostCall } from './host-call-context.js';
import { asScript } from '../audit/actor.js';

export { scriptPrincipal, type ScriptPrincipal } from './script-as.js';

/** A run's answer with the `_id` of the log entry it left (absent when none could be written). */
export type LoggedRun = RunResult & { logId?: string };

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
  /** A trigger run: its record and event (scripting/prelude-trigger.ts). */
  trigger?: TriggerRunContext;
  /** What the run's log entry says of it (logs/run-log.ts); default: an ad-hoc runner run. */
  log?: Omit<RunLogMeta, 'principalId'>;
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
    // The original's extras (definitions as records, org.read, accounts.register/admin) wrap it.
    ...extraHost(
      svc,
      org,
      driverHost(svc, org, caller, {
        callerFor: (asPrincipal) => as.callerOf(asPrincipal),
        trustedFor: (asPrincipal) => as.grantOf(asPrincipal)?.acl.options === 'trusted',
      }),
    ),
    ...tokenHost(svc, org, caller, callerFor),
    ...libraryHost(svc, org),
    ...moduleHost(svc, org),
    ...httpHost(org),
    ...developerHost(svc, org, callerFor),
    ...apiHost(svc, org, callerFor),
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

/**
 * Runs `source` for the invocation's caller with the org's limits, and writes the run's log entry
 * (every run leaves one, whatever started it, a source that does not compile too). The source is
 * compiled first (ES modules and decorators, language/transpile.ts); a version seen before is in
 * the cache, so a saved script is never transpiled by its runs.
 */
export async function runScriptFor(svc: Service, inv: ScriptInvocation): Promise<LoggedRun> {
  const { org, caller } = inv;
  const principal = scriptPrincipal(svc, org, caller.accountId);
  const begin = svc.clock.now();
  const requester = inv.requester?.startsWith('ip:') ? undefined : inv.requester;
  const logged = (result: RunResult): LoggedRun => {
    const meta = { type: 'runner' as const, ...inv.log, principalId: caller.accountId };
    const entry = writeRunLog(svc, org, { ...meta, originalId: inv.log?.originalId ?? requester }, begin, result);
    return entry ? { ...result, logId: entry._id } : result;
  };
  const limits = limitsForOrg(org);
  const maxChars = limits.maxScriptChars ?? DEFAULT_SCRIPT_LIMITS.maxScriptChars;
  // The size limit is the source's as written; the compiled form may be a little longer (helpers).
  const compiled = inv.source.length > maxChars ? undefined : compileScript(inv.source);
  if (compiled && !compiled.ok) {
    const reason = `Line ${compiled.line}, column ${compiled.column}: ${compiled.message}`;
    return logged(refused(makeFault('invalidArgument', 'script', { message: compiled.message, reason })));
  }
  // A run started inside a script's host call (a trigger of a write the script made) is nested in
  // that run: it shares its org's share of the workers instead of queueing behind it.
  const parent = currentHostCall();
  const start = parent ? parent.runNested.bind(parent) : svc.scripts.run.bind(svc.scripts);
  // What the run's host calls write is audited as this script's (audit/actor.ts).
  const audited = { scriptType: inv.log?.type ?? 'runner', ...(inv.log?.scriptId ? { script: inv.log.scriptId } : {}) };
  const run: typeof start = (request) => asScript(audited, () => start(request));
  const result = await run({
    source: compiled ? compiled.code : inv.source,
    context: {
      consts: scriptConsts(svc, org),
      httpEnabled: org.settings.scriptHttpEnabled === true,
      arguments: inv.arguments ?? {},
      principal: principal ?? null,
      // The org's base URL as the caller called it, port included, like a token's `aud`.
      env: { url: orgAudience(org.code, requestHost(inv.request)), name: 'development' },
      org: { _id: String(org.id), code: org.code },
      ...(inv.request ? { request: inv.request } : {}),
      ...(inv.trigger ? { trigger: inv.trigger } : {}),
    },
    host: scriptHost(svc, org, caller, { extra: inv.extraHost, readOnly: inv.readOnly }),
    limits: compiled ? { ...limits, maxScriptChars: Math.max(maxChars, compiled.code.length) } : limits,
    queue: { org: String(org.id), caller: inv.requester ?? caller.accountId },
  });
  return logged(result);
}
