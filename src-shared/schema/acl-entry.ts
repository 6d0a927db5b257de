/**
 * A route's `acl` entries in this service's string form (docs/scripting.md#script-routes), the
 * `format: 'aclEntry'` of a String property (a script's `configuration.acl`, objects/validate.ts):
 * `anonymous`, `account.public`, `account.<id>`, `role.<id or name>`. The original's clients and
 * exports write entries as objects `{type, target}` — `type` a name (`account`, `role`, as
 * `consts.accessTargets` gives here) or the original's numeric principal types (1 account,
 * 3 role) — and `@route` options take either form. One reading for route records (normalised when
 * they are written, by whichever writer) and decorated routes (read at save), so both mean the same.
 *
 * Trust boundary: entries come from callers and imports. An entry that names no one this service
 * can check (the original's self and owner types, an object without a target) is refused rather
 * than dropped, so a route never ends up more open than its author wrote; targets are kept as
 * written (an id of another system matches no one here).
 */
import { fault } from '../faults.js';

/** The original's numeric principal types a route acl can use (its AccessTargets). */
const NUMERIC_TYPES: Readonly<Record<number, string>> = { 1: 'account', 3: 'role' };
/** This service's `consts.principals` (script-consts.ts), which scripts put in entries. */
const PUBLIC_TARGETS = new Set(['*', 'public']);
const ANONYMOUS_ID = '000000000000000000000001';
const MAX_ENTRY = 100;

/** One entry as a string; throws a validation fault naming `path` otherwise. */
export function routeAclEntry(entry: unknown, path: string): string {
  if (typeof entry === 'string') return checked(entry, path);
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    throw invalid(path, 'An acl entry is a string such as role.administrator, or {type, target}.');
  }
  const { type: rawType, target } = entry as { type?: unknown; target?: unknown };
  const type = typeof rawType === 'number' ? NUMERIC_TYPES[rawType] : rawType;
  if (type === 'anonymous' || type === 'account.public') return type;
  if (type !== 'account' && type !== 'role') {
    throw invalid(path, `acl entry type ${String(rawType)} is not one a route can check: use account (1) or role (3).`);
  }
  if (typeof target !== 'string' || target === '') throw invalid(path, `An ${type} entry names its target.`);
  if (type === 'account' && PUBLIC_TARGETS.has(target)) return 'account.public';
  if (type === 'account' && target === ANONYMOUS_ID) return 'anonymous';
  return checked(`${type}.${target}`, path);
}

/** A whole acl (an array, or one entry) in string form. */
export function routeAcl(value: unknown, path = 'acl'): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry, i) => routeAclEntry(entry, `${path}[${i}]`));
}

function checked(entry: string, path: string): string {
  if (entry.length === 0 || entry.length > MAX_ENTRY)
    throw invalid(path, `An acl entry has 1–${MAX_ENTRY} characters.`);
  return entry;
}

const invalid = (path: string, reason: string) => fault('validation', 'acl', { path, reason });
