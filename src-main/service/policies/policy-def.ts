/**
 * One request policy as the original's org policy reads it (docs/scripting.md#policies), from a
 * library's `@policy` registration (scripting/language/registrations.ts) or the org's configuration
 * (configured-policy.ts; both read by `readPolicy`): the matchers, the action and its fault,
 * redirect and rate limit. `policyOf` is both the save-time check (a
 * `validation.script` fault naming the line, policy-rules.ts) and what the org's policy table
 * is built from (policy-table.ts), so what is saved is what is enforced.
 */
import { FAULT_CATEGORIES, fault, type FaultCategory } from '../../../src-shared/faults.js';
import { routeAcl } from '../../../src-shared/schema/acl-entry.js';
import type { StaticValue } from '../scripting/language/static-value.js';
import type { ScriptRegistration } from '../scripting/language/registrations.js';
import { compilePaths, parseRange, type IpRange, type PathEntry, type PathPattern } from './patterns.js';

export type PolicyAction = 'Allow' | 'Deny' | 'Redirect' | 'Script';

export interface PolicyDef {
  /** `<library _id>:<Class>.<member>` (one registration of one library), or `configuration:<name>`. */
  id: string;
  /** Where it is declared: a library's `@policy`, or the org's configuration (`org.policies`). */
  source: 'library' | 'configuration';
  /** The library's `_id`; empty for a configured policy. */
  libraryId: string;
  /** `Class.member` or the configured policy's name, as faults and log entries name the policy. */
  label: string;
  name?: string;
  priority: number;
  weight: number;
  active: boolean;
  halt: boolean;
  /** `production` policies never apply here: this service's environment is development. */
  environment: string;
  condition: 'and' | 'or';
  methods: string[];
  paths?: PathPattern;
  ipWhitelist: IpRange[];
  ipBlacklist: IpRange[];
  appWhitelist: string[];
  appBlacklist: string[];
  aclWhitelist: string[];
  aclBlacklist: string[];
  action: PolicyAction;
  fault: { category: FaultCategory; detail?: string; status: number; reason: string };
  redirect?: { url: string; status: number };
  rateLimit?: { count: number; windowSeconds: number; elements: string[]; reason: string };
  /** A library policy's registration: its Script action calls the decorated method. */
  registration?: ScriptRegistration;
  /** A configured Script policy's `script`: the source its Script action runs. */
  script?: string;
}

const METHODS = ['get', 'patch', 'post', 'put', 'delete'];
const FAULT_STATUSES = [400, 401, 403, 404, 405, 410, 451, 501, 503];
const REDIRECT_STATUSES = [301, 303, 307, 308];
const ACTIONS = ['Allow', 'Deny', 'Redirect', 'Script'];
const RATE_ELEMENTS = ['ip', 'app', 'principal'];
/**
 * The original's options this service does not apply, and why: a policy that is saved but not
 * applied would look like protection and be none, so each is refused at save.
 */
const REFUSED: Record<string, string> = {
  if: 'conditional expressions are not evaluated here (no expression language); put the condition in a Script policy',
  pipeline: 'expression pipelines are not run here',
  transform: 'transforms of the answer are not run here',
};
const REFUSED_ACTIONS: Record<string, string> = {
  Transform: 'transforms of the answer are not run here',
  Pipeline: 'expression pipelines are not run here',
};
/** Read by the original and harmless to ignore here (docs/scripting.md#policies). */
const IGNORED = new Set(['label', 'name', 'type', 'trace']);
const KNOWN = new Set([
  ...IGNORED,
  'active',
  'weight',
  'environment',
  'priority',
  'halt',
  'condition',
  'methods',
  'paths',
  'ipWhitelist',
  'ipBlacklist',
  'appWhitelist',
  'appBlacklist',
  'aclWhitelist',
  'aclBlacklist',
  'action',
  'faultCode',
  'faultStatusCode',
  'faultReason',
  'redirectUrl',
  'redirectStatusCode',
  'rateLimit',
  'rateLimitElements',
  'rateLimitReason',
  'rateLimitCount',
  'rateLimitWindow',
]);

/** The policy a registration declares; throws a `validation.script` fault naming the line and the option. */
export function policyOf(libraryId: string, reg: ScriptRegistration): PolicyDef {
  const { className, methodName, loc, field } = reg.metadata;
  const label = `${className}.${methodName}`;
  const fail = (reason: string) =>
    fault('validation', 'script', {
      path: 'script',
      reason: `Line ${loc.line}, column ${loc.column}: @policy ${label}: ${reason}`,
    });
  const c = reg.configuration;
  checkOptionNames(c, fail);
  const def = readPolicy(c, { id: `${libraryId}:${label}`, label, defaultAction: field ? 'Deny' : 'Script', fail });
  if (def.action === 'Script' && field) throw fail('a Script policy decorates a method (the method is the script).');
  return { ...def, source: 'library', libraryId, registration: reg };
}

/** Refuses an option this service does not apply (REFUSED) or does not know; `extra` are more known names. */
export function checkOptionNames(
  c: Record<string, StaticValue>,
  fail: (r: string) => Error,
  extra: string[] = [],
): void {
  for (const key of Object.keys(c)) {
    if (Object.hasOwn(REFUSED, key)) throw fail(`the option ${key} is not supported: ${REFUSED[key]}.`);
    if (!KNOWN.has(key) && !extra.includes(key))
      throw fail(`the option ${key} is not one of the original's policy options.`);
  }
}

interface ReadSpec {
  id: string;
  label: string;
  defaultAction: PolicyAction;
  fail: (reason: string) => Error;
}

/**
 * The options every policy has, wherever it is declared (the one reading of them: a library's
 * `@policy` and a configured policy differ only in where they come from and what a Script runs).
 */
export function readPolicy(c: Record<string, StaticValue>, spec: ReadSpec): Omit<PolicyDef, 'source' | 'libraryId'> {
  const { fail, label } = spec;
  const action = str(c.action) ?? spec.defaultAction;
  if (Object.hasOwn(REFUSED_ACTIONS, action))
    throw fail(`the action ${action} is not supported: ${REFUSED_ACTIONS[action]}.`);
  if (!ACTIONS.includes(action)) throw fail(`action is one of ${ACTIONS.join(', ')}.`);
  const list = (key: string): string[] => {
    const v = c[key];
    if (v === undefined || v === null) return [];
    const items = Array.isArray(v) ? v : [v];
    if (items.length > 50) throw fail(`${key} has at most 50 entries.`);
    return items.map((item) => {
      if (typeof item === 'string' && item.trim() !== '' && item.length <= 255) return item.trim();
      throw fail(`${key} takes strings.`);
    });
  };
  const pathEntries = (): PathEntry[] => {
    const v = c.paths;
    const items = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
    if (items.length > 50) throw fail('paths has at most 50 entries.');
    return items.map((item) => {
      if (typeof item === 'string' && item.trim() !== '' && item.length <= 255) return item.trim();
      // A regular expression literal is not a literal value: the syntax tree gives its text.
      const expr = isRecord(item) && typeof item.$expression === 'string' ? item.$expression : '';
      const literal = /^\/(.+)\/([a-z]*)$/s.exec(expr);
      if (literal && expr.length <= 255) return { regex: literal[1] ?? '', flags: literal[2] ?? '' };
      throw fail('paths takes path strings (/routes/:id) or regular expression literals.');
    });
  };
  const methods = list('methods').map((m) => m.toLowerCase());
  const badMethod = methods.find((m) => !METHODS.includes(m));
  if (badMethod) throw fail(`methods are among ${METHODS.join(', ')} (not ${badMethod}).`);
  const paths = pathEntries();
  let pathRegExp: PathPattern | undefined;
  try {
    pathRegExp = paths.length > 0 ? compilePaths(paths) : undefined;
  } catch (e) {
    throw fail(`paths: ${(e as Error).message}`);
  }
  const ranges = (key: string) =>
    list(key).map((entry) => parseRange(entry) ?? (() => { throw fail(`${key}: ${entry} is not an IP address or CIDR range.`); })()); // prettier-ignore
  const acl = (key: string) => {
    try {
      return routeAcl(c[key], key);
    } catch (e) {
      throw fail(`${key}: ${(e as { fault?: { reason?: string } }).fault?.reason ?? String(e)}`);
    }
  };
  const environment = str(c.environment) ?? '*';
  if (!['*', 'development', 'production'].includes(environment))
    throw fail("environment is '*', 'development' or 'production'.");
  const condition = str(c.condition) ?? 'and';
  if (condition !== 'and' && condition !== 'or') throw fail("condition is 'and' or 'or'.");
  const def: Omit<PolicyDef, 'source' | 'libraryId'> = {
    id: spec.id,
    label,
    ...(str(c.name) ? { name: str(c.name) } : {}),
    priority: integer(c.priority, 'priority', fail) ?? 0,
    weight: typeof c.weight === 'number' && Number.isFinite(c.weight) ? c.weight : 0,
    active: bool(c.active, 'active', fail) ?? true,
    halt: bool(c.halt, 'halt', fail) ?? false,
    environment,
    condition,
    methods,
    ...(pathRegExp ? { paths: pathRegExp } : {}),
    ipWhitelist: ranges('ipWhitelist'),
    ipBlacklist: ranges('ipBlacklist'),
    appWhitelist: list('appWhitelist'),
    appBlacklist: list('appBlacklist'),
    aclWhitelist: acl('aclWhitelist'),
    aclBlacklist: acl('aclBlacklist'),
    action: action as PolicyAction,
    fault: policyFault(c, fail),
  };
  if (action === 'Redirect') def.redirect = redirectOf(c, fail);
  if (bool(c.rateLimit, 'rateLimit', fail)) def.rateLimit = rateLimitOf(c, fail);
  return def;
}

/** `faultCode` (the original's `cortex.accessDenied.policy`, here `service.…`), status and reason. */
function policyFault(c: Record<string, StaticValue>, fail: (r: string) => Error): PolicyDef['fault'] {
  const given = str(c.faultCode) ?? 'service.accessDenied.policy';
  // mdctl's policy template writes the code (`kAccessDenied`): it stands for its category.
  const byCode = Object.entries(FAULT_CATEGORIES).find(([, v]) => v.code === given)?.[0];
  const code = byCode ?? given;
  const [category, ...rest] = code.replace(/^service\./, '').split('.');
  if (!category || !Object.hasOwn(FAULT_CATEGORIES, category) || code.length > 100 || rest.some((p) => !/^[A-Za-z0-9_]+$/.test(p)))
    throw fail(`faultCode ${code.slice(0, 100)} is not a fault code (service.<category>.<detail>, a category of docs/faults.md).`); // prettier-ignore
  const status = c.faultStatusCode ?? 403;
  if (typeof status !== 'number' || !FAULT_STATUSES.includes(status))
    throw fail(`faultStatusCode is one of ${FAULT_STATUSES.join(', ')}.`);
  const reason = str(c.faultReason) ?? 'Access denied by policy.';
  if (reason.length > 100) throw fail('faultReason has at most 100 characters.');
  return {
    category: category as FaultCategory,
    ...(rest.length > 0 ? { detail: rest.join('.') } : {}),
    status,
    reason,
  };
}

/** An API path of the org (`/routes/x`) or an `https://` URL, as the original takes. */
function redirectOf(c: Record<string, StaticValue>, fail: (r: string) => Error): PolicyDef['redirect'] {
  const url = str(c.redirectUrl) ?? '';
  const api = /^\/[^/\\]/.test(url) && !/[\s\r\n]/.test(url);
  const https = URL.canParse(url) && new URL(url).protocol === 'https:' && !/[\s\r\n]/.test(url);
  if (url.length > 100 || (!api && !https))
    throw fail('a Redirect policy needs redirectUrl: an API path (/routes/x) or an https:// URL.');
  const status = c.redirectStatusCode ?? 307;
  if (typeof status !== 'number' || !REDIRECT_STATUSES.includes(status))
    throw fail(`redirectStatusCode is one of ${REDIRECT_STATUSES.join(', ')}.`);
  return { url, status };
}

function rateLimitOf(c: Record<string, StaticValue>, fail: (r: string) => Error): PolicyDef['rateLimit'] {
  const count = integer(c.rateLimitCount, 'rateLimitCount', fail) ?? 300;
  const windowSeconds = integer(c.rateLimitWindow, 'rateLimitWindow', fail) ?? 300;
  if (count < 1 || windowSeconds < 1 || windowSeconds > 86_400)
    throw fail('rateLimitCount is at least 1, rateLimitWindow 1 to 86400 seconds.');
  const raw = c.rateLimitElements ?? ['ip'];
  const elements = (Array.isArray(raw) ? raw : [raw]).map(String).sort();
  if (elements.some((e) => !RATE_ELEMENTS.includes(e)))
    throw fail(`rateLimitElements are among ${RATE_ELEMENTS.join(', ')}.`);
  const reason = str(c.rateLimitReason) ?? 'Too many requests.';
  return { count, windowSeconds, elements: [...new Set(elements)], reason: reason.slice(0, 100) };
}

function str(v: StaticValue | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function bool(v: StaticValue | undefined, key: string, fail: (r: string) => Error): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw fail(`${key} is true or false.`);
  return v;
}

function integer(v: StaticValue | undefined, key: string, fail: (r: string) => Error): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw fail(`${key} is an integer.`);
  return v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
