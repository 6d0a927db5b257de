/**
 * Applies the org's policies to one request, in order, before its route runs (the original's
 * policy middleware; docs/scripting.md#policies). Framework-free: the HTTP gate
 * (http/policy-gate.ts) builds the request's facts and turns the outcome into the answer.
 *
 * Trust boundary: a Script policy is the org's own code run for an outside request; whatever it
 * does, the request is either let through, answered, or refused with a fault — a policy that
 * fails (throws a plain error, times out, no longer loads) refuses the request (fail closed).
 */
import { FaultError, fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import type { ScriptRequest } from '../scripting/protocol.js';
import { runScriptFor } from '../scripting/script-host.js';
import { dispatchSource } from '../scripting/decorator-routes.js';
import { envelope, responseHost, type RouteAnswer } from '../scripting/response-host.js';
import { triggeredBy, type RequestFacts } from './match.js';
import { countRequest } from './rate-limit.js';
import type { PolicyDef } from './policy-def.js';
import type { PolicyEntry } from './policy-table.js';
import { resolveRoleNames, roleIdsByName } from '../scripting/script-consts.js';

export interface PolicyRequest {
  facts: RequestFacts;
  /** Who a Script policy runs as: the request's caller, or no one. */
  caller: Caller;
  /** Who asked, for the fair queue (an account id or `ip:<address>`). */
  requester: string;
  readOnly: boolean;
  /** What `require('request')` shows a Script policy. */
  script: ScriptRequest;
}

export type PolicyOutcome =
  /** The route runs; `body` is set when a Script policy changed the request's body. */
  | { kind: 'continue'; headers: Record<string, string>; body?: { value: unknown } }
  | { kind: 'answer'; headers: Record<string, string>; status?: number; body: unknown }
  | { kind: 'redirect'; headers: Record<string, string>; status: number; location: string };

/**
 * Evaluates `policies` (the org's table, in order) for the request. Throws a FaultError to refuse
 * it; `headers` (rate limits) are for the answer whatever it is, a refusal included.
 */
export async function applyPolicies(
  svc: Service,
  org: Org,
  policies: readonly PolicyEntry[],
  req: PolicyRequest,
  headers: Record<string, string>,
): Promise<PolicyOutcome> {
  let body: { value: unknown } | undefined;
  const going = (): PolicyOutcome => ({ kind: 'continue', headers, ...(body ? { body } : {}) });
  for (const entry of policies) {
    if ('broken' in entry) {
      throw fault('accessDenied', 'policy', {
        reason: `The policy ${entry.label} cannot be applied, so every request is refused until it is fixed (or switched off: admin policy disable): ${entry.reason}`,
      });
    }
    const policy = entry;
    if (triggeredBy(policy, req.facts).length === 0) continue;
    countRequest(svc, org, policy, req.facts, headers);
    switch (policy.action) {
      case 'Redirect': {
        const { url, status } = policy.redirect ?? { url: '/', status: 307 };
        return { kind: 'redirect', headers, status, location: url.startsWith('/') ? `/${org.code}/v2${url}` : url };
      }
      case 'Deny': {
        const { category, detail, status, reason } = policy.fault;
        throw new FaultError({ ...makeFault(category, detail, { reason }), status });
      }
      case 'Script': {
        const ran = await runPolicyScript(svc, org, policy, req, body);
        if (ran.body) body = ran.body;
        if (ran.answer) return { ...ran.answer, headers: { ...headers, ...ran.answer.headers } };
        if (ran.halted) return going();
        break;
      }
      case 'Allow':
        if (policy.halt) return going();
        break;
    }
  }
  return going();
}

interface ScriptOutcome {
  answer?: Extract<PolicyOutcome, { kind: 'answer' }>;
  halted: boolean;
  body?: { value: unknown };
}

/**
 * Runs the policy's method as the original does (`runtime.policy`, prelude decorator-modules.ts):
 * what it returns, or writes with `require('response')`, answers the request; `halt()` lets the
 * request go on without the policies after it; nothing of these goes on to the next policy.
 */
async function runPolicyScript(
  svc: Service,
  org: Org,
  policy: PolicyDef,
  req: PolicyRequest,
  changed: { value: unknown } | undefined,
): Promise<ScriptOutcome> {
  const answer: RouteAnswer = { headers: {} };
  const state: ScriptOutcome = { halted: false };
  const result = await runScriptFor(svc, {
    org,
    caller: req.caller,
    // A library policy calls its decorated method; a configured one runs its `script` text.
    source: policy.registration
      ? dispatchSource({ _id: policy.libraryId, source: '', active: true }, policy.registration)
      : (policy.script ?? ''),
    request: changed ? { ...req.script, body: changed.value } : req.script,
    extraHost: {
      ...responseHost(answer),
      'policy.halt'() {
        state.halted = true;
      },
      'policy.body'(value: unknown) {
        state.body = { value };
      },
    },
    readOnly: req.readOnly,
    requester: req.requester,
    log: {
      type: 'policy',
      ...(policy.libraryId ? { scriptId: policy.libraryId } : {}),
      resource: policy.label,
      path: `${req.facts.method} ${req.facts.path}`,
    },
  });
  if (!result.ok) throw new FaultError(refusal(policy, result.fault));
  const value = result.cursor ? { object: 'list', data: result.cursor.buffered, hasMore: result.cursor.options !== null } : result.value; // prettier-ignore
  if (!answer.next && (answer.hasBody || answer.status !== undefined || (value !== undefined && value !== null))) {
    state.answer = {
      kind: 'answer',
      headers: answer.headers,
      ...(answer.status !== undefined ? { status: answer.status } : {}),
      body: answer.hasBody ? (answer.body ?? null) : envelope(value),
    };
  }
  return state;
}

/**
 * The fault a failed policy run refuses the request with: the fault the method chose to throw
 * (`Fault.create('service.accessDenied.policy', …)`, a host call's refusal), else — a plain error,
 * a limit reached, a library that no longer loads — `accessDenied.policy` naming the policy and
 * what went wrong: the org's own code failing is never answered as a 5xx, and never lets the
 * request through.
 */
function refusal(policy: PolicyDef, f: FaultBody): FaultBody {
  const failed = f.status >= 500 || f.status < 400 || RUN_FAILURES.test(f.errCode);
  if (!failed) return f;
  return makeFault('accessDenied', 'policy', {
    reason: `The policy ${policy.label} failed, so the request is refused: ${(f.reason ?? f.message).slice(0, 1000)}`,
  });
}

/** The runner's faults for a script that failed rather than refused (scripting/script-faults.ts, limits.ts). */
const RUN_FAILURES =
  /^service\.(invalidArgument\.script|invalidArgument\.scriptCompilation|tooLarge\.script|timeout|notFound\.policy|notImplemented\.script)/;

/** A request's facts for the matchers; `acl` role names are resolved only if a policy asks. */
export function requestFacts(
  svc: Service,
  org: Org,
  input: Omit<RequestFacts, 'resolveAcl' | 'method'> & { method: string },
): RequestFacts {
  let roles: Record<string, string> | undefined;
  const method = input.method.toLowerCase();
  return {
    ...input,
    method: method === 'head' ? 'get' : method,
    resolveAcl: (acl) => resolveRoleNames(acl, (roles ??= roleIdsByName(svc, org))),
  };
}
