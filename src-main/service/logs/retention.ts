/**
 * Retention of the service's own records (objects/service-written.ts: script run logs and the audit
 * trail): entries created before a cut-off are deleted in batches, each its own short statement, so
 * pruning a large backlog never holds the write lock for long (housekeeping.ts runs it with the
 * org's `logRetentionDays` and `auditRetentionDays`).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { statements } from '../db/statements.js';
import { propertyExpression, quoteTable } from '../query/expressions.js';
import { isServiceWritten } from '../objects/service-written.js';

/** Rows deleted per statement. */
export const PRUNE_BATCH = 2000;
/** Statements per run and type: a backlog larger than this goes over the next runs. */
export const MAX_PRUNE_BATCHES = 50;

/** Deletes `objectName` records of the org created before `beforeMs`; answers how many. */
export function pruneServiceRecords(svc: Service, org: Org, objectName: string, beforeMs: number): number {
  if (!isServiceWritten(objectName)) throw new Error(`${objectName} records are not pruned by age here.`);
  const def = svc.defs.byName(org.id, objectName);
  if (!def) return 0;
  const table = quoteTable(svc.store.ensureCollection(org.id, def));
  const created = propertyExpression('created', svc.store.keyColumns(org.id, def));
  // `created` is an ISO-8601 UTC text, so text order is time order.
  const stmt = statements(svc.db).dynamic(
    `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${created} < ? LIMIT ?)`,
  );
  const before = new Date(beforeMs).toISOString();
  let deleted = 0;
  for (let i = 0; i < MAX_PRUNE_BATCHES; i++) {
    const n = stmt.run(before, PRUNE_BATCH).changes;
    deleted += n;
    if (n < PRUNE_BATCH) break;
  }
  return deleted;
}
