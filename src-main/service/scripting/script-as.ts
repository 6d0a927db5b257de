/**
 * `script.as(principal, options, fn)` (docs/scripting.md; issue 38, Medium 6): host calls
 * made inside `fn` act as another account of the org. Only an org administrator may switch (a
 * token needs `admin.update`), and every option only narrows what the calls may do — relative to
 * the account switched to, to the run's caller (its token's scopes, flags and lifetime) and to an
 * enclosing `script.as`:
 *
 *   principal.scope            scope chains (trailing `.*` segments dropped: the original writes
 *                              `object.read.*.*.*`); the calls may do only what these AND the caller's
 *                              token (or the enclosing script.as) allow (a chain neither side
 *                              proves within the other is dropped: narrowing, never guessing)
 *   principal.roles            role ids; the account keeps only those of its roles (an empty list:
 *                              none, so an administrator account acts as a plain account)
 *   principal.skipAcl          the ACL does not limit matching, if the caller could skip it itself
 *   principal.bypassCreateAcl  the create ACL is not consulted, likewise
 *   principal.grant            at least this level (at most 7) on what it reaches, likewise
 *   acl, modules               rules per call (script-as-rules.ts)
 *
 * The original, as its API test suite ("Modules › Script.as") shows: `scope: ['object.read.*.*.*']`
 * refuses writes with `accessDenied.scope`; `roles: []` leaves an administrator seeing only its own
 * account; `acl.safe: true` drops a script's `.skipAcl().grant(6)` and `acl.safe: false` honours
 * them; `acl.blacklist: ['grant']` refuses `.grant()` (its `['skipAcl']` silently drops `.skipAcl()`;
 * here every blacklisted option is refused alike); a nested script.as cannot turn a safe acl unsafe.
 * Unlike the original, a nested script.as cannot name a scope beyond the enclosing one's (its test
 * "Script.as Calls Script.as" lets a `view.*` script.as nest an `object.read.account` one).
 * `principal.roles` in the original replaces the roles, and so could add some: here it only keeps.
 *
 * The script holds what `as` returned (`script.principal`) and sends it back with each call; the
 * host answers only principals it issued itself, by their exact JSON, so a changed one is refused.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope, validateScopes } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { callerOf, type Caller } from '../access/caller.js';
import { resolveRoles } from '../access/roles.js';
import { ACCESS, MAX_SHARED_LEVEL } from '../access/levels.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { normaliseEmail } from '../accounts/credentials.js';
import { chainWithin } from '../auth/tokens/mint-rights.js';
import type { HostCallContext, HostFunctions } from './run-types.js';
import {
  assertAclAllowed,
  assertModuleAllowed,
  driverCalls,
  dropPrivileged,
  hostModuleNames,
  parseAclRules,
  parseModuleRules,
  type AclRules,
  type ModuleRules,
} from './script-as-rules.js';

/** `script.principal` as the original exposes it. */
export interface ScriptPrincipal {
  _id: string;
  email: string;
  name: unknown;
  roles: string[];
}

/** What `as` hands back: the principal, its narrowed rights, and which issue it is. */
interface AsPrincipal extends ScriptPrincipal {
  scope?: string[];
  skipAcl: boolean;
  bypassCreateAcl: boolean;
  grant?: number;
  /** Tells apart two issues of the same account (their rules may differ). */
  asId: number;
}

/** What calls inside one `script.as` act with. */
export interface AsGrant {
  caller: Caller;
  acl: AclRules;
  /** Module rules, outermost first: a call must pass each. */
  modules: readonly ModuleRules[];
}

const optionError = (path: string, reason: string) => fault('invalidArgument', 'script.as', { path, reason });
const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The principal for `script.principal`, or undefined when the account does not exist. */
export function scriptPrincipal(svc: Service, org: Org, accountId: string): ScriptPrincipal | undefined {
  const def = svc.defs.byName(org.id, 'account');
  const found = def && OBJECT_ID_PATTERN.test(accountId) ? svc.store.get(org.id, def, accountId) : undefined;
  if (!found) return undefined;
  const roles = found.doc.roles;
  return {
    _id: found._id,
    email: String(found.doc.email ?? ''),
    name: found.doc.name ?? null,
    roles: Array.isArray(roles) ? roles.map(String) : [],
  };
}

/** Finds an account by `_id`, email, or `{_id}` / `{email}` (the forms `script.as` accepts). */
function findAccountId(svc: Service, org: Org, who: unknown): string | undefined {
  const w = record(who);
  const key = typeof who === 'object' && who !== null ? (w._id ?? w.email) : who;
  if (typeof key !== 'string' || key === '') return undefined;
  if (OBJECT_ID_PATTERN.test(key.toLowerCase())) return scriptPrincipal(svc, org, key.toLowerCase())?._id;
  return svc.credentials.byEmail(org.id, normaliseEmail(key))?.account_id;
}

/** Chains allowed by both lists, as far as can be proven (see chainWithin). */
function intersectScopes(held: readonly string[] | undefined, wanted: readonly string[]): string[] {
  if (held === undefined) return [...wanted];
  const out = new Set<string>();
  for (const w of wanted) {
    for (const h of held) {
      if (chainWithin(w, h)) out.add(w);
      else if (chainWithin(h, w)) out.add(h);
    }
  }
  return [...out];
}

function grantLevel(value: unknown): number | undefined {
  const level = typeof value === 'string' ? (ACCESS as Record<string, number>)[value] : value;
  if (level === undefined || value === null) return undefined;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < ACCESS.public) {
    throw optionError('principal.grant', 'principal.grant is an access level from 1 to 7.');
  }
  return Math.min(level, MAX_SHARED_LEVEL);
}

export class ScriptAs {
  private readonly issued = new Map<string, AsGrant>();
  private nextId = 1;

  constructor(
    private readonly svc: Service,
    private readonly org: Org,
    private readonly base: Caller,
  ) {}

  /** The grant a call acts with: undefined outside `script.as`; a principal `as` did not issue is refused. */
  grantOf(asPrincipal: unknown): AsGrant | undefined {
    if (asPrincipal === undefined || asPrincipal === null) return undefined;
    const grant = this.issued.get(JSON.stringify(asPrincipal));
    if (!grant) throw fault('accessDenied', 'script.as', { reason: 'The principal is not one script.as returned.' });
    return grant;
  }

  /** Whom a call acts as: the run's caller, or inside `script.as` the account switched to. */
  callerOf(asPrincipal: unknown): Caller {
    return this.grantOf(asPrincipal)?.caller ?? this.base;
  }

  /** The `as` host function: checks who may switch, and issues the narrowed principal. */
  enter(call: HostCallContext, who: unknown, options: unknown): AsPrincipal {
    const enclosing = this.grantOf(call.asPrincipal);
    const current = enclosing?.caller ?? this.base;
    // Only org administrators may act as someone else. A token needs what acting for another
    // account needs over REST (minting its tokens): admin.update; admin.read only reads.
    if (!current.orgAdmin) {
      throw fault('accessDenied', 'principal', { reason: 'Only org administrators may use script.as.' });
    }
    if (current.scopes !== undefined) {
      const decision = checkScope(current.scopes, { kind: 'admin', action: 'update' });
      if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
    }
    const accountId = findAccountId(this.svc, this.org, who);
    const principal = accountId ? scriptPrincipal(this.svc, this.org, accountId) : undefined;
    if (!principal) throw fault('notFound', 'instance', { reason: 'script.as: no such account.' });
    const opts = record(options);
    const p = record(opts.principal);
    // An unscoped administrator (a session) may use every privilege; a token only those it carries.
    const unlimited = current.scopes === undefined && current.orgAdmin;
    const caller = this.narrowedCaller(current, principal, opts, p, unlimited);
    const modules = parseModuleRules(opts.modules);
    const grant: AsGrant = {
      caller,
      acl: parseAclRules(opts.acl, enclosing?.acl, unlimited),
      modules: [...(enclosing?.modules ?? []), ...(modules ? [modules] : [])],
    };
    const issued: AsPrincipal = {
      ...principal,
      roles: principal.roles.filter((r) => caller.roles.has(r)),
      ...(caller.scopes === undefined ? {} : { scope: [...caller.scopes] }),
      skipAcl: caller.skipAcl,
      bypassCreateAcl: caller.bypassCreateAcl,
      ...(caller.grant === undefined ? {} : { grant: caller.grant }),
      asId: this.nextId++,
    };
    this.issued.set(JSON.stringify(issued), grant);
    return issued;
  }

  /** The account switched to, with only what `current` could give it (see the table above). */
  private narrowedCaller(
    current: Caller,
    principal: ScriptPrincipal,
    opts: Record<string, unknown>,
    p: Record<string, unknown>,
    unlimited: boolean,
  ): Caller {
    const account = callerOf(this.svc, {
      org: this.org,
      principal: { accountId: principal._id, email: principal.email, roles: [] },
      ...(current.tokenExpiry === undefined ? {} : { tokenExpiry: current.tokenExpiry }),
    });
    let roles = account.roles;
    if (p.roles !== undefined) {
      if (!Array.isArray(p.roles) || p.roles.some((r) => typeof r !== 'string' || !OBJECT_ID_PATTERN.test(r))) {
        throw optionError('principal.roles', 'principal.roles is a list of role ids.');
      }
      const kept = resolveRoles(this.svc, this.org, p.roles as string[]).roleSet;
      roles = new Set([...account.roles].filter((r) => kept.has(r)));
    }
    let scopes = current.scopes;
    if (p.scope !== undefined) {
      const given: unknown = typeof p.scope === 'string' ? [p.scope] : p.scope;
      // The original's spelling `object.read.*.*.*`: trailing `*` segments say what ending the
      // chain says (this grammar refuses `*` for the object type, which they would stand for).
      const wanted = Array.isArray(given)
        ? given.map((c: unknown) => (typeof c === 'string' ? c.replace(/(?<=.)(\.\*)+$/, '') : c))
        : given;
      try {
        validateScopes(wanted);
      } catch (e) {
        throw optionError('principal.scope', `principal.scope: ${(e as Error).message}`);
      }
      scopes = intersectScopes(current.scopes, wanted as string[]);
    }
    // `skipAcl: true` beside `principal` is the older spelling of principal.skipAcl.
    const wantsSkip = p.skipAcl === true || opts.skipAcl === true;
    const level = grantLevel(p.grant);
    const ceiling = unlimited ? MAX_SHARED_LEVEL : (current.grant ?? 0);
    const grant = level === undefined ? undefined : Math.min(level, ceiling);
    return {
      accountId: account.accountId,
      roles,
      orgAdmin: roles.has(BUILTIN_ROLES.administrator),
      skipAcl: wantsSkip && (unlimited || current.skipAcl),
      bypassCreateAcl: p.bypassCreateAcl === true && (unlimited || current.bypassCreateAcl),
      ...(scopes === undefined ? {} : { scopes }),
      ...(grant ? { grant } : {}),
      ...(account.tokenExpiry === undefined ? {} : { tokenExpiry: account.tokenExpiry }),
    };
  }
}

/**
 * The host functions with the `acl` and `modules` rules of the `script.as` each call is made in
 * (calls outside `script.as` pass as they are). `aliasesOf` names an object by every name it has.
 */
export function guardedHost(as: ScriptAs, host: HostFunctions, aliasesOf: (object: string) => string[]): HostFunctions {
  const out: HostFunctions = {};
  for (const [name, fn] of Object.entries(host)) {
    out[name] = function guarded(this: HostCallContext, ...args: unknown[]) {
      const grant = as.grantOf(this.asPrincipal);
      if (!grant) return fn.apply(this, args);
      if (name !== 'driver') {
        assertModuleAllowed(grant.modules, hostModuleNames(name));
        return fn.apply(this, args);
      }
      const [object, operation, options] = args;
      const calls = driverCalls(String(object), String(operation), options);
      for (const c of calls) {
        const op = c.operation === 'cursor' ? 'find' : c.operation;
        assertModuleAllowed(
          grant.modules,
          aliasesOf(c.object).map((o) => `objects.${o}.${op}`),
        );
      }
      assertAclAllowed(grant.acl, calls);
      const passed = grant.acl.options === 'drop' ? dropPrivileged(String(operation), options) : options;
      return fn.apply(this, [object, operation, passed]);
    };
  }
  return out;
}
