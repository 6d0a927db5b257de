/**
 * Creating a record as a caller, for every writer (REST `POST /<collection>`, the driver's
 * insertOne and insertMany, scripts): the create scope and ACL, administrator-only account
 * properties, validation, who may name a principal, the rules of sharing, then the one write path (write.ts), which runs the
 * record rules and hooks. With `dryRun` every check runs and nothing is stored; the answer is the
 * record as it would be (without `_id` for accounts, whose creation has side effects of its own).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { prepareAccount, type NewAccount } from '../accounts/accounts.js';
import { storeNewAccount } from './create-account.js';
import { reference, type StoredRecord } from '../objects/stored-record.js';
import {
  assertAccountPropertiesAllowed,
  assertConnectionAllowed,
  assertWritable,
  canCreate,
  requireScope,
  type Caller,
} from '../access/objects.js';
import { assertMayNamePrincipal } from '../access/named-principal.js';
import { validated } from './validate-write.js';
import { commitWrite } from './write.js';
import type { BeforeCreate } from './write-hooks.js';

export async function createRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  body: unknown,
  opts: { dryRun?: boolean; before?: BeforeCreate } = {},
): Promise<StoredRecord> {
  assertWritable(requireScope(caller, 'create', def), body);
  if (!canCreate(caller, def)) {
    throw fault('accessDenied', undefined, { reason: `You may not create ${def.collection}.` });
  }
  assertAccountPropertiesAllowed(caller, def, body, 'create');
  const dryRun = opts.dryRun === true;
  if (def.name === 'account') return createAccountRecord(svc, org, caller, def, body, opts);
  const _id = svc.store.newId();
  // Before triggers (triggered-writes.ts) see the record with its _id and may change it; what they
  // change is validated with the rest.
  const changes = opts.before ? await opts.before(_id, validated(def, body, 'create')) : undefined;
  const values = validated(def, changes ? { ...(body as object), ...changes } : body, 'create');
  assertMayNamePrincipal(svc, org, caller, def.name, values);
  if (def.name === 'connection') assertConnectionAllowed(svc, org, caller, values);
  values.owner = reference('account', caller.accountId);
  const event = { op: 'create', org, def, values, actorId: caller.accountId, caller, dryRun } as const;
  return commitWrite(svc, event, () => {
    if (dryRun) return { _id, doc: values };
    return svc.store.insert(org.id, def, values, { updaterId: caller.accountId, _id });
  });
}

/** An account and its credentials (create-account.ts), its before triggers included. */
async function createAccountRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  body: unknown,
  opts: { dryRun?: boolean; before?: BeforeCreate },
): Promise<StoredRecord> {
  const { before } = opts;
  if (opts.dryRun === true) {
    // Every check but the password's (a dry run stores no credentials); nothing is stored.
    const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
    const { password: _password, ...rest } = isObject ? (body as Record<string, unknown>) : {};
    const values = validated(def, isObject ? rest : body, 'update');
    const _id = svc.store.newId();
    const changes = before ? await before(_id, values) : undefined;
    return { _id, doc: changes ? validated(def, { ...values, ...changes }, 'update') : values };
  }
  const prepared = prepareAccount(svc, org, body as NewAccount);
  const outcome = await storeNewAccount(svc, org, def, prepared, { caller, ...(before ? { before } : {}) });
  if (outcome.kind !== 'created') throw new Error('an account create without onTaken is never answered taken');
  return outcome.record;
}
