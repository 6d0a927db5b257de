import { randomUUID } from 'node:crypto';
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Org } from '../orgs/orgs.js';
import type { Service } from '../service.js';
import { hashPassword } from './password.js';
import { passwordProblem } from '../../../src-shared/passwords/strength.js';
import { validateInput, type Json } from '../objects/validate.js';
import type { StoredRecord, WriteMeta } from '../objects/stored-record.js';
import { normaliseEmail } from './credentials.js';

export interface NewAccount {
  email: string;
  password: string;
  name?: { first?: string; last?: string };
  roles?: string[];
  state?: 'unverified' | 'verified';
  [key: string]: unknown;
}

export function accountDef(svc: Service, org: Org): ObjectDef {
  const def = svc.defs.byName(org.id, 'account');
  if (!def) throw new Error(`org ${org.code} has no account definition`);
  return def;
}

/**
 * Every account's `key.fingerprint` is a UUID the service generates (docs/compatibility.md#records-and-routes-as-the-original-shapes-them:
 * "fingerprint (string, UUID form)"); one given is kept and validated like any property. A `key`
 * that is not an object is left for validation to refuse.
 */
function withFingerprint(key: unknown): unknown {
  if (key === undefined || key === null) return { fingerprint: randomUUID() };
  if (typeof key !== 'object' || Array.isArray(key)) return key;
  const given = key as Record<string, unknown>;
  return given.fingerprint === undefined ? { ...given, fingerprint: randomUUID() } : given;
}

/** The one gate for every new password: setup, registration, admin-created accounts and changes. */
export function checkPasswordStrength(password: unknown): string {
  const problem = typeof password === 'string' ? passwordProblem(password) : 'The password must be a string.';
  if (problem !== undefined) throw fault('validation', 'password', { path: 'password', reason: problem });
  return password as string;
}

/** A new account checked and ready to store: what `createAccount` validates before the slow hash. */
export interface PreparedAccount {
  values: Record<string, Json> & { email: string };
  password: string;
}

/** Validates a new account (body shape, email, password strength, properties) without writing anything. */
export function prepareAccount(svc: Service, org: Org, input: NewAccount): PreparedAccount {
  // Trust boundary: `input` is a caller's JSON body. Not an object → fault, not a TypeError (500);
  // an email that is not a string is refused rather than stored as String(value) ("[object Object]").
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw fault('validation', 'invalidType', { reason: 'The request body must be a JSON object.' });
  }
  if (typeof input.email !== 'string') {
    throw fault('validation', 'required', { path: 'email', reason: 'email must be a string.' });
  }
  const password = checkPasswordStrength(input.password);
  const { password: _omit, ...fields } = input;
  const def = accountDef(svc, org);
  const body = {
    state: 'unverified',
    roles: [],
    ...fields,
    key: withFingerprint(fields.key),
    email: normaliseEmail(input.email),
  };
  const { values, faults } = validateInput(def, body, 'create');
  if (faults.length > 0) throw fault('validation', undefined, { faults, reason: 'The account is not valid.' });
  return { values: values as PreparedAccount['values'], password };
}

/**
 * Stores a prepared account and its credentials: the store operation of an account's creation
 * (records/create-account.ts runs it inside the one write path; `createAccount` below as a system
 * write). Call inside a write transaction. The email's uniqueness is checked here
 * (`exists.email`), not left to the unique index.
 */
export function insertAccount(
  svc: Service,
  org: Org,
  values: PreparedAccount['values'],
  passwordHash: string,
  meta: Pick<WriteMeta, '_id' | 'updaterId'> = {},
): StoredRecord {
  if (svc.credentials.byEmail(org.id, values.email)) {
    throw fault('exists', 'email', { path: 'email', reason: 'An account with this email already exists.' });
  }
  const record = svc.store.insert(org.id, accountDef(svc, org), values, meta);
  svc.credentials.insert(org.id, record._id, values.email, passwordHash);
  return record;
}

/**
 * Creates an account as a system write, outside the records service: no caller, no triggers, no
 * audit entry. Only for the org's first administrator (bootstrap.ts), made with the org itself
 * before any trigger or audit trail can exist, and for tests' fixtures; every other account is
 * created through records/create-account.ts. The password is hashed before the transaction so
 * the write lock is never held during the (deliberately slow) hash.
 */
export async function createAccount(svc: Service, org: Org, input: NewAccount): Promise<StoredRecord> {
  const { values, password } = prepareAccount(svc, org, input);
  const hash = await hashPassword(password);
  return svc.db.transaction(() => insertAccount(svc, org, values, hash))();
}
