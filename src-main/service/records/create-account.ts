/**
 * The one way an account is created, whatever the way in: an administrator's or a script's create
 * (REST `POST /accounts`, the driver's insertOne, scripts' `org.objects.accounts.register`;
 * create.ts), self-registration (auth/sessions/registration.ts) and the command line's `admin
 * account create` (account-writes.ts). Only the org's first administrator, made with the org before
 * anything can hook its writes, is stored by bootstrap.ts as a system write (docs/ARCHITECTURE.md#the-records-service).
 *
 * 1. The caller checked the account (`prepareAccount`: shape, email, password strength, validation).
 * 2. Its `create.before` triggers (`before`) see the account as it would be stored — never the
 *    password, which is kept apart from the record (credentials), hashed — and may change it: the
 *    account is then checked again as a whole; a trigger may not give it a password. A refusal
 *    throws before anything is written: no record, no credentials, no message.
 * 3. The password is hashed outside any transaction (slow on purpose).
 * 4. One write transaction (write.ts): the record rules, then the record and its credentials, then
 *    what the way in adds in the same transaction (`alongside`: a registration's ticket and mail).
 * The writer then audits and runs the after triggers (triggered-writes.ts).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { hashPassword } from '../accounts/password.js';
import { insertAccount, prepareAccount, type PreparedAccount } from '../accounts/accounts.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { Json } from '../objects/validate.js';
import { commitWrite, writeTransaction } from './write.js';
import type { BeforeCreate } from './write-hooks.js';

export interface NewAccountOptions {
  /** Who creates it: REST, the driver, scripts, a registration's anonymous caller; absent for the command line. */
  caller?: Caller;
  /** Runs the account's before triggers (absent when it has none). */
  before?: BeforeCreate;
  /**
   * An email already taken is answered `taken` (after the same slow hash) and this runs in the
   * write transaction instead of the insert: a registration tells the owner rather than the
   * caller. Without it, a taken email is the `exists.email` fault.
   */
  onTaken?: (owner: { accountId: string; email: string }) => void;
  /** Runs in the write transaction once the account is stored (its side effects roll back with it). */
  alongside?: (record: StoredRecord) => void;
}

export type NewAccountOutcome =
  { kind: 'created'; record: StoredRecord } | { kind: 'taken'; values: PreparedAccount['values'] };

export async function storeNewAccount(
  svc: Service,
  org: Org,
  def: ObjectDef,
  prepared: PreparedAccount,
  opts: NewAccountOptions = {},
): Promise<NewAccountOutcome> {
  const _id = svc.store.newId();
  const { values, password } = await withBeforeTriggers(svc, org, _id, prepared, opts.before);
  const hash = await hashPassword(password);
  const { caller } = opts;
  return writeTransaction(svc, (): NewAccountOutcome => {
    const owner = opts.onTaken ? svc.credentials.byEmail(org.id, values.email) : undefined;
    if (owner) {
      opts.onTaken!({ accountId: owner.account_id, email: owner.email });
      return { kind: 'taken', values };
    }
    const event = {
      op: 'create',
      org,
      def,
      values,
      dryRun: false,
      caller,
      actorId: caller?.accountId || undefined,
    } as const;
    const record = commitWrite(svc, event, () =>
      insertAccount(svc, org, values, hash, { _id, ...(caller?.accountId ? { updaterId: caller.accountId } : {}) }),
    );
    opts.alongside?.(record);
    return { kind: 'created', record };
  });
}

/**
 * The account as its before triggers leave it: what they change is merged and the whole account
 * checked again (`prepareAccount`), so a trigger can give it nothing a caller could not.
 */
async function withBeforeTriggers(
  svc: Service,
  org: Org,
  id: string,
  prepared: PreparedAccount,
  before: BeforeCreate | undefined,
): Promise<PreparedAccount> {
  if (!before) return prepared;
  const changes = await before(id, { ...prepared.values });
  if (!changes) return prepared;
  if ('password' in changes) {
    throw fault('validation', 'readOnly', {
      path: 'password',
      reason: 'A trigger may not set an account’s password.',
    });
  }
  const next: Record<string, Json> = { ...prepared.values, ...changes };
  // `prepareAccount` refuses a non-string email; the fault names the trigger's change.
  return prepareAccount(svc, org, { ...next, email: next.email as string, password: prepared.password });
}
