/**
 * Access levels and ACL entries (docs/scopes.md).
 *
 * An object definition may carry `defaultAcl` (who holds which level on every instance) and
 * `createAcl` (who may create instances). Definitions without them get the fallbacks below, chosen
 * so that nothing is shared unless someone shares it: owners (creators) hold their records, an
 * account holds itself, and everything else is for org administrators.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { makeFault, type FaultBody } from '../../../src-shared/faults.js';

export const ACCESS = {
  public: 1,
  connected: 2,
  read: 3,
  share: 4,
  update: 5,
  delete: 6,
  script: 7,
  admin: 8,
} as const;

/** The level each operation needs on an instance. */
export const REQUIRED = { read: ACCESS.read, update: ACCESS.update, delete: ACCESS.delete } as const;

/** Highest level a connection or a grant can give: admin is for org administrators alone. */
export const MAX_SHARED_LEVEL = ACCESS.script;

/**
 * `role`: holders of the role (included roles count); `account`: one account by id, or `*` for
 * every logged-in account; `owner`: the account that created the instance (for accounts: the
 * account itself). `allow` is the level granted; create ACLs ignore it (matching is what counts).
 */
export type AclEntry =
  | { type: 'role'; target: string; allow: number }
  | { type: 'account'; target: string; allow: number }
  | { type: 'owner'; allow: number };

/** ACL fields an object definition may carry (stored on the definition JSON). */
export interface AclFields {
  defaultAcl?: unknown;
  createAcl?: unknown;
}

/**
 * Built-in types only org administrators create and change (issue 38 medium 5): a script runs,
 * and a view queries, as whomever it names, and a deployment reads and writes whole orgs. Their
 * ACLs cannot be widened to others (`checkAclInput`), and whatever ACL is stored, connection or
 * grant there is, no one else creates them or holds more than share on them (acl.ts, objects.ts).
 */
export const ADMIN_WRITTEN_TYPES: ReadonlySet<string> = new Set(['script', 'view', 'deployment']);

/** The highest level anyone but an org administrator holds on a record of an admin-written type. */
export const ADMIN_WRITTEN_CEILING = ACCESS.share;

const ANY_ACCOUNT: AclEntry = { type: 'account', target: '*', allow: ACCESS.read };

const FALLBACK: Record<string, { defaultAcl: AclEntry[]; createAcl: AclEntry[] }> = {
  // Accounts are made by administrators (or by registration); an account updates itself.
  account: { defaultAcl: [{ type: 'owner', allow: ACCESS.update }], createAcl: [] },
  // Roles carry scopes: writing them is privilege management.
  role: { defaultAcl: [], createAcl: [] },
  // Creating a connection additionally needs share access on its context (see access/objects.ts).
  connection: { defaultAcl: [{ type: 'owner', allow: ACCESS.delete }], createAcl: [ANY_ACCOUNT] },
};
const CUSTOM_FALLBACK = { defaultAcl: [{ type: 'owner', allow: ACCESS.delete }], createAcl: [ANY_ACCOUNT] } as const;

/** The definition's default ACL, or its fallback; malformed entries are dropped (fail closed). */
export function defaultAcl(def: ObjectDef): AclEntry[] {
  const stored = (def as ObjectDef & AclFields).defaultAcl;
  if (stored !== undefined) return readEntries(stored);
  return [...(FALLBACK[def.name]?.defaultAcl ?? (def.custom ? CUSTOM_FALLBACK.defaultAcl : []))];
}

export function createAcl(def: ObjectDef): AclEntry[] {
  const stored = (def as ObjectDef & AclFields).createAcl;
  if (stored !== undefined) return readEntries(stored);
  return [...(FALLBACK[def.name]?.createAcl ?? (def.custom ? CUSTOM_FALLBACK.createAcl : []))];
}

/** Trust boundary: ACLs are stored JSON; only entries of the exact shapes above are honoured. */
export function readEntries(value: unknown): AclEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw: unknown): AclEntry[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const { type, target, allow } = raw as Record<string, unknown>;
    if (typeof allow !== 'number' || !Number.isInteger(allow) || allow < ACCESS.public || allow > MAX_SHARED_LEVEL)
      return [];
    if (type === 'owner') return [{ type, allow }];
    if (type === 'role' && typeof target === 'string' && OBJECT_ID_PATTERN.test(target))
      return [{ type, target, allow }];
    if (type === 'account' && typeof target === 'string' && (target === '*' || OBJECT_ID_PATTERN.test(target)))
      return [{ type, target, allow }];
    return [];
  });
}

/** At most this many entries in one ACL. */
export const MAX_ACL_ENTRIES = 100;

/**
 * Trust boundary: an ACL sent by an administrator (`POST/PATCH /schemas`, `defaultAcl` or
 * `createAcl`). Each entry is `{type: 'role' | 'account' | 'owner', target?, allow}`; `allow` is a
 * level from 1 to 7 (admin, 8, is for org administrators alone); a create ACL may leave it out.
 * Problems are child faults naming the entry (`defaultAcl[2].allow`); `roleExists` decides
 * whether a role target names a role of the org. For an admin-written type (`objectName` in
 * ADMIN_WRITTEN_TYPES) a create entry, or an entry above share, is refused.
 */
export function checkAclInput(
  value: unknown,
  path: 'defaultAcl' | 'createAcl',
  roleExists: (id: string) => boolean,
  faults: FaultBody[],
  objectName?: string,
): AclEntry[] {
  const bad = (at: string, reason: string) => faults.push(makeFault('validation', 'acl', { path: at, reason }));
  const adminWritten = objectName !== undefined && ADMIN_WRITTEN_TYPES.has(objectName);
  if (!Array.isArray(value)) {
    bad(path, `${path} must be an array of entries.`);
    return [];
  }
  if (value.length > MAX_ACL_ENTRIES) {
    bad(path, `${path} holds at most ${MAX_ACL_ENTRIES} entries.`);
    return [];
  }
  const out: AclEntry[] = [];
  value.forEach((raw: unknown, i) => {
    const at = `${path}[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad(at, 'An entry is an object.');
    const { type, target } = raw as Record<string, unknown>;
    let allow = (raw as Record<string, unknown>).allow;
    if (allow === undefined && path === 'createAcl') allow = ACCESS.public;
    if (typeof allow !== 'number' || !Number.isInteger(allow) || allow < ACCESS.public || allow > MAX_SHARED_LEVEL) {
      return bad(`${at}.allow`, `allow is a level from ${ACCESS.public} to ${MAX_SHARED_LEVEL}.`);
    }
    if (adminWritten && path === 'createAcl') {
      return bad(at, `Only org administrators create ${objectName} records: its createAcl stays empty.`);
    }
    if (adminWritten && allow > ADMIN_WRITTEN_CEILING) {
      return bad(
        `${at}.allow`,
        `Only org administrators change ${objectName} records: allow is at most ${ADMIN_WRITTEN_CEILING} (share).`,
      );
    }
    if (type === 'owner') return void out.push({ type, allow });
    if (type === 'role') {
      if (typeof target !== 'string' || !OBJECT_ID_PATTERN.test(target) || !roleExists(target)) {
        return bad(`${at}.target`, 'target must be the _id of a role of this org.');
      }
      return void out.push({ type, target, allow });
    }
    if (type === 'account') {
      if (typeof target !== 'string' || !(target === '*' || OBJECT_ID_PATTERN.test(target))) {
        return bad(`${at}.target`, 'target must be an account _id, or * for every logged-in account.');
      }
      return void out.push({ type, target, allow });
    }
    return bad(`${at}.type`, 'type is role, account or owner.');
  });
  return out;
}
