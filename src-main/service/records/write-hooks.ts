/**
 * The seam where triggers plug into the one write path (write.ts): every record a caller writes —
 * REST, the driver API, scripts, environment import and deployments, the CLI's loads — passes
 * `beforeWrite` inside the write's transaction (after the record rules, before the store; it may
 * change `event.values` or throw a fault to refuse the write) and, once the transaction that holds
 * it commits, `afterCommit`; triggers/install.ts installs the trigger phase. Without hooks a write
 * costs nothing more. Bookkeeping writes of the service itself (lock-outs, verification, derived
 * roles, connection clean-up, seeding) are not record operations of a caller and do not pass here:
 * they are named in objects/system-writes.ts.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Doc, Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { Caller } from '../access/caller.js';

export interface WriteEvent {
  op: 'create' | 'update' | 'delete';
  org: Org;
  def: ObjectDef;
  /** The record's `_id`; undefined for a create until it is stored. */
  id?: string;
  /** What is written (create, update): the validated values, changeable by `beforeWrite`. */
  values?: Record<string, Json>;
  /** The stored record before the write (update, delete). */
  current?: StoredRecord;
  /** The account that writes; undefined for system loads. */
  actorId?: string;
  /** The caller who writes (REST, the driver, scripts); undefined for loads (import, the CLI). */
  caller?: Caller;
  /** Nothing is stored: a dry run, or a patch that changes nothing. `afterCommit` does not run. */
  dryRun: boolean;
  /** The record as stored (create, update), set once it is written. */
  record?: StoredRecord;
}

/** A caller's write as its triggers see it (triggered-writes.ts, triggers/run-trigger.ts). */
export interface HookedWrite {
  org: Org;
  def: ObjectDef;
  op: WriteEvent['op'];
  id: string;
  next?: Doc;
  old?: Doc;
  modified: string[];
  caller?: Caller;
  actorId?: string;
  dryRun: boolean;
  /** The memo its before and after triggers share (triggers/memo.ts); without it, each phase has its own. */
  memo?: TriggerMemo;
}

/** The trigger memo of one write, as JSON text ('{}' until a trigger stores something: triggers/memo.ts). */
export interface TriggerMemo {
  json: string;
}

/** A write's memo: the writer makes one per write and hands it to both trigger phases. */
export const newMemo = (): TriggerMemo => ({ json: '{}' });

export interface WriteHooks {
  /** Inside the write's transaction: may change `event.values`; a fault it throws refuses the write. */
  beforeWrite?(event: WriteEvent): void;
  /** After the commit: the write stands whatever this does (an error it throws reaches the writer). */
  afterCommit?(event: WriteEvent): void;
  /**
   * The trigger phase (issue 41, triggers/install.ts) of a caller's write (REST, the driver API,
   * scripts; triggered-writes.ts): a trigger is a script run, which is asynchronous and is never
   * held inside a transaction, so `before` runs ahead of the write's transaction (answering the
   * values it changes, or throwing the refusal) and `after` once it committed (never rejects).
   * `has` answers from memory whether a write of this kind has any.
   */
  has?(svc: Service, write: Pick<HookedWrite, 'org' | 'def' | 'op'>, phase: 'before' | 'after'): boolean;
  before?(svc: Service, write: HookedWrite): Promise<Record<string, Json> | undefined>;
  after?(svc: Service, write: HookedWrite): Promise<void>;
}

/** Runs the before triggers of a create (triggered-writes.ts): answers the values they change. */
export type BeforeCreate = (id: string, values: Record<string, Json>) => Promise<Record<string, Json> | undefined>;

const NO_HOOKS: WriteHooks = Object.freeze({});
const installed = new WeakMap<Service, WriteHooks>();

/** The hooks of a service's writes (none unless installed). */
export function writeHooks(svc: Service): WriteHooks {
  return installed.get(svc) ?? NO_HOOKS;
}

/** Installs the hooks of a service's writes (replacing any before). */
export function setWriteHooks(svc: Service, hooks: WriteHooks): void {
  installed.set(svc, hooks);
}
