/**
 * The one place a record is written, for every writer: `commitWrite` runs the record rules
 * (rules.ts), the before-write hook (write-hooks.ts) and then the store operation the writer gives,
 * inside one transaction, and the after-commit hook once the outermost write transaction commits.
 * Writers that put several writes in one transaction (a PATCH's read-modify-write, an environment
 * import) open it with `writeTransaction`, so after-commit hooks wait for its commit and are
 * dropped when it rolls back.
 */
import type { Service } from '../service.js';
import type { Db } from '../db/open.js';
import { checkRecordRules } from './rules.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { writeHooks, type WriteEvent } from './write-hooks.js';

/** Events written inside the open write transaction of a database, waiting for its commit. */
const pending = new WeakMap<Db, WriteEvent[]>();

/**
 * Runs `fn` in a write transaction: an immediate one (the write lock taken at once, so a
 * read-modify-write never loses a race) when none is open, else inside the open one. When it is
 * the outermost, the after-commit hooks of the writes it held run once it has committed.
 */
export function writeTransaction<T>(svc: Service, fn: () => T): T {
  const db = svc.db;
  if (db.inTransaction) return db.transaction(fn)();
  const queued: WriteEvent[] = [];
  pending.set(db, queued);
  let result: T;
  try {
    result = db.transaction(fn).immediate();
  } finally {
    pending.delete(db);
  }
  const after = writeHooks(svc).afterCommit;
  if (after) for (const event of queued) after(event);
  return result;
}

/**
 * Writes one record: the rules of its type (create and update; `replace`: the values replace the
 * record), the before-write hook, then `store`, which performs the write (or, for a dry run,
 * makes the record as it would be) and returns it (for a create or an update: the record, which
 * the event then carries).
 */
export function commitWrite<T>(svc: Service, event: WriteEvent, store: () => T, opts: { replace?: boolean } = {}): T {
  return writeTransaction(svc, () => {
    const { org, def, values, current, actorId, caller } = event;
    if (values) {
      const who = { ...(actorId ? { actorId } : {}), ...(caller ? { caller } : {}) };
      checkRecordRules(svc, { org, def, values, ...(current ? { current } : {}), ...who }, opts.replace);
    }
    writeHooks(svc).beforeWrite?.(event);
    const result = store();
    if (event.op !== 'delete') event.record = result as StoredRecord;
    if (!event.dryRun && writeHooks(svc).afterCommit) pending.get(svc.db)?.push(event);
    return result;
  });
}
