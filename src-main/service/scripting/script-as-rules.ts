/**
 * The `acl` and `modules` options of `script.as` (issue 38, Medium 6): rules a host call made
 * inside it must pass, on top of what its principal may do. They only ever take away: a nested
 * `script.as` adds its rules to those of the one around it (script-as.ts).
 *
 *   modules: { safe, whitelist, blacklist }   names of the script API a call uses: `script.as`,
 *     `objects.<object>.<operation>` (`find` for cursors; the object as named by the script and by
 *     its definition, so a blacklist is not passed by writing `account` for `accounts`),
 *     `objects.accounts.createAuthToken` (and the other token functions), `response.<function>`.
 *     A pattern matches a name equal to it or starting with it and a dot (`objects` = `objects.*`);
 *     `*` matches every name. `safe: true` refuses `script.as` and the token functions.
 *   acl: { safe, blacklist }   the privileged driver options `skipAcl`, `grant` and `roles`:
 *     `safe: true` drops them (as the original drops them in its "safe acl" test), a name in
 *     `blacklist` is refused (`service.accessDenied.script.as`), `safe: false` honours them as
 *     written by the script when the run's own caller could use them (script-as.ts).
 */
import { fault } from '../../../src-shared/faults.js';
import { MAX_BULK_DEPTH } from '../driver/operation.js';

export const PRIVILEGED_OPTIONS = ['skipAcl', 'grant', 'roles'] as const;

export interface ModuleRules {
  /** Refuse `script.as` and the token functions. */
  safe: boolean;
  /** When not empty, only names matching one of these. */
  whitelist: readonly string[];
  blacklist: readonly string[];
}

/** How the privileged driver options of calls inside a `script.as` are treated. */
export interface AclRules {
  /** `drop`: removed; `caller`: honoured where the acting principal holds them; `trusted`: honoured. */
  options: 'drop' | 'caller' | 'trusted';
  /** Options whose use is refused. */
  blacklist: ReadonlySet<string>;
}

const MAX_PATTERNS = 100;
const TOKEN_FUNCTIONS: Record<string, string> = {
  'tokens.create': 'objects.accounts.createAuthToken',
  'tokens.list': 'objects.accounts.getSubjectTokens',
  'tokens.revoke': 'objects.accounts.revokeAuthToken',
  'tokens.revokeSubject': 'objects.accounts.revokeSubjectTokens',
};
/** What `modules.safe` refuses: acting as someone else, and the account token functions. */
const SAFE_REFUSED = new Set(['script.as', ...Object.values(TOKEN_FUNCTIONS)].map((n) => n.toLowerCase()));
const RESPONSE_FUNCTIONS: Record<string, string> = {
  'response.status': 'response.setStatusCode',
  'response.header': 'response.setHeader',
  'response.body': 'response.write',
  'route.next': 'response.next',
};

const invalid = (path: string, reason: string) => fault('invalidArgument', 'script.as', { path, reason });
const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function patterns(value: unknown, path: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_PATTERNS || value.some((p) => typeof p !== 'string' || p === ''))
    throw invalid(path, `${path} is a list of at most ${MAX_PATTERNS} module names.`);
  return (value as string[]).map((p) => p.toLowerCase());
}

/** `options.modules`, or undefined when absent. */
export function parseModuleRules(value: unknown): ModuleRules | undefined {
  if (value === undefined) return undefined;
  const raw = record(value);
  if (!raw) throw invalid('modules', 'modules is an object: { safe, whitelist, blacklist }.');
  return {
    safe: raw.safe === true,
    whitelist: patterns(raw.whitelist, 'modules.whitelist'),
    blacklist: patterns(raw.blacklist, 'modules.blacklist'),
  };
}

/** `options.acl` on top of the enclosing rules; `trustedAllowed`: the caller before could use the options. */
export function parseAclRules(value: unknown, enclosing: AclRules | undefined, trustedAllowed: boolean): AclRules {
  const raw = value === undefined ? {} : record(value);
  if (!raw) throw invalid('acl', 'acl is an object: { safe, blacklist }.');
  const blacklist = new Set(enclosing?.blacklist);
  for (const name of patterns(raw.blacklist, 'acl.blacklist')) {
    const known = PRIVILEGED_OPTIONS.find((o) => o.toLowerCase() === name);
    if (known) blacklist.add(known);
  }
  let options: AclRules['options'] = raw.safe === false && trustedAllowed ? 'trusted' : 'caller';
  if (raw.safe === true || enclosing?.options === 'drop') options = 'drop';
  else if (enclosing && enclosing.options !== 'trusted') options = 'caller';
  return { options, blacklist };
}

const matches = (pattern: string, name: string) =>
  pattern === '*' || name === pattern || name.startsWith(pattern.endsWith('.*') ? pattern.slice(0, -1) : `${pattern}.`);

/** Throws unless every rule set allows a call known by any of `aliases` (all names of the same call). */
export function assertModuleAllowed(rules: readonly ModuleRules[], aliases: readonly string[]): void {
  const names = aliases.map((a) => a.toLowerCase());
  for (const r of rules) {
    const refused =
      (r.safe && names.some((n) => SAFE_REFUSED.has(n))) ||
      names.some((n) => r.blacklist.some((p) => matches(p, n))) ||
      (r.whitelist.length > 0 && !names.some((n) => r.whitelist.some((p) => matches(p, n))));
    if (refused) {
      throw fault('accessDenied', 'script.as', {
        path: 'modules',
        reason: `${aliases[0]} is not among the modules this script.as allows.`,
      });
    }
  }
}

/** Module names of a host call other than `driver` (whose names depend on the object: driverCalls). */
export function hostModuleNames(host: string): string[] {
  if (host === 'as') return ['script.as'];
  const token = TOKEN_FUNCTIONS[host];
  // The token functions hang off `org.objects.accounts` and `org.objects.account` alike.
  if (token) return [token, token.replace('objects.accounts.', 'objects.account.')];
  return [RESPONSE_FUNCTIONS[host] ?? host];
}

/** One driver operation a `driver` host call makes: its own, or one of its bulk's. */
export interface DriverCall {
  object: string;
  operation: string;
  options: Record<string, unknown>;
}

/** The operations of `driver(object, operation, options)`, nested bulk operations included. */
export function driverCalls(object: string, operation: string, options: unknown, depth = 0): DriverCall[] {
  const out: DriverCall[] = [{ object, operation, options: record(options) ?? {} }];
  const ops = operation !== 'bulk' ? undefined : Array.isArray(options) ? options : record(options)?.ops;
  if (!Array.isArray(ops) || depth > MAX_BULK_DEPTH) return out;
  for (const op of ops) {
    const o = record(op);
    // An operation is its own options; a nested bulk's operations are its `ops`.
    if (o)
      out.push(...driverCalls(typeof o.object === 'string' ? o.object : object, String(o.operation), o, depth + 1));
  }
  return out;
}

/** Refuses blacklisted privileged options anywhere in the call (bulk operations included). */
export function assertAclAllowed(acl: AclRules, calls: readonly DriverCall[]): void {
  for (const call of calls) {
    for (const name of acl.blacklist) {
      if (call.options[name] !== undefined && call.options[name] !== false) {
        throw fault('accessDenied', 'script.as', {
          path: `acl.${name}`,
          reason: `This script.as does not allow the ${name} option.`,
        });
      }
    }
  }
}

/** The driver options without the privileged ones, in nested bulk operations too (`acl.safe`). */
export function dropPrivileged(operation: string, options: unknown, depth = 0): unknown {
  const strip = (o: Record<string, unknown>) => {
    const out = { ...o };
    for (const name of PRIVILEGED_OPTIONS) delete out[name];
    return out;
  };
  const mapOps = (ops: unknown[]) =>
    ops.map((op) => {
      const o = record(op);
      if (!o) return op;
      const stripped = strip(o);
      if (o.operation === 'bulk' && Array.isArray(o.ops) && depth < MAX_BULK_DEPTH) {
        stripped.ops = dropPrivileged('bulk', o.ops, depth + 1);
      }
      return stripped;
    });
  if (operation === 'bulk' && Array.isArray(options)) return mapOps(options);
  const o = record(options);
  if (!o) return options;
  const stripped = strip(o);
  if (operation === 'bulk' && Array.isArray(o.ops)) stripped.ops = mapOps(o.ops);
  return stripped;
}
