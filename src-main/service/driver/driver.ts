/**
 * The driver API (docs/driver.md): twelve operations on the records of one object, with
 * the options the original's clients send. `runDriverOperation` is the one entry; the HTTP route
 * (`POST /<org>/v2/<object>/db/<operation>`, routes/driver.ts) and the script host's `driver`
 * function (scripting/host-driver.ts) both call it, so the two cannot disagree.
 *
 * Every operation goes through the records service (records/), which applies the same access
 * model, query language, limits and validation as the REST routes. Unknown option keys are ignored (clients send
 * `object`, `operation`, `maxTimeMs`, … that mean nothing here). `skipAcl`, `grant` and `roles` in
 * the options are privileged: see `effectiveCaller` (privileged-options.ts).
 *
 * The parts: operation.ts (names, limits, context, result), privileged-options.ts, list-query.ts,
 * reads.ts (cursor, readOne), matches.ts (which records a write names), writes.ts, bulk.ts.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { updateToOps } from '../objects/patch-ops.js';
import type { Caller } from '../access/caller.js';
import { levelOf } from '../access/acl.js';
import { ACCESS } from '../access/levels.js';
import { objectDef } from '../records/object-def.js';
import { countRecords } from '../records/list.js';
import { createTriggered, deleteTriggered, patchTriggered } from '../records/triggered-writes.js';
import { deleteMany, patchMany } from '../records/many.js';
import { presentFor } from '../records/presentation.js';
import {
  asOptions,
  DRIVER_OPERATIONS,
  isDriverOperation,
  MAX_BULK_ENVELOPE_ITEMS,
  type DriverContext,
  type DriverResult,
  type Options,
} from './operation.js';
import { effectiveCaller } from './privileged-options.js';
import { listQuery } from './list-query.js';
import { cursor, readOne } from './reads.js';
import { refuseAggregation } from './aggregate-cursor.js';
import { matchMany, matchOne } from './matches.js';
import { bulk } from './bulk.js';
import { insertMany, leanAnswer, patchOps } from './writes.js';

/** The body of an HTTP answer that is not a stream. */
export function driverAnswer(result: Exclude<DriverResult, { kind: 'stream' }>): unknown {
  if (result.kind === 'value') return { object: 'result', data: result.value ?? null };
  if (result.kind === 'record') return result.record;
  return { object: 'list', data: result.data, hasMore: result.hasMore };
}

/** Runs one driver operation for `caller` on the object `objectName` (singular or plural). */
export async function runDriverOperation(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  operation: string,
  options: unknown,
  context: DriverContext = {},
): Promise<DriverResult> {
  if (!isDriverOperation(operation)) {
    throw fault('invalidArgument', 'operation', {
      path: 'operation',
      reason: `Unknown driver operation ${JSON.stringify(operation.slice(0, 50))}; use ${DRIVER_OPERATIONS.join(', ')}.`,
    });
  }
  // bulk takes a bare array of operations too.
  if (operation === 'bulk') return bulk(svc, org, caller, objectName, options, context, runDriverOperation);
  const opts = asOptions(options);
  const dryRun = dryRunOption(opts);
  const def = objectDef(svc, org, objectName);
  const who = effectiveCaller(svc, org, caller, opts, context);
  switch (operation) {
    case 'cursor':
      return cursor(svc, org, who, def, opts, context);
    case 'count': {
      refuseAggregation(opts, 'count');
      const query = listQuery(org, def, opts, { paths: false });
      const n = countRecords(svc, org, who, def, { ...query, skip: query.skip });
      return { kind: 'value', value: opts.limit === undefined || opts.limit === false ? n : Math.min(n, query.limit) };
    }
    case 'readOne':
      return readOne(svc, org, who, def, opts);
    case 'insertOne': {
      const record = await createTriggered(svc, org, who, def, opts.document, { dryRun });
      const level = dryRun ? ACCESS.admin : levelOf(svc, org, who, def, record);
      const presented = presentFor(who, def, record, level);
      return leanAnswer(presented, opts.lean, Object.keys(opts.document as object));
    }
    case 'insertMany':
      return { kind: 'value', value: await insertMany(svc, org, who, def, opts) };
    case 'updateOne':
    case 'patchOne': {
      const { id, subPath } = matchOne(svc, org, who, def, opts.match, operation === 'patchOne');
      const ops = operation === 'updateOne' ? updateToOps(opts.update) : patchOps(opts.ops, subPath);
      const { record, modifiedPaths } = await patchTriggered(svc, org, who, def, id, ops, {
        mergeDocuments: opts.mergeDocuments === true,
        dryRun,
      });
      const presented = presentFor(who, def, record, levelOf(svc, org, who, def, record));
      return leanAnswer(presented, opts.lean, modifiedPaths);
    }
    case 'updateMany':
    case 'patchMany': {
      const ops = operation === 'updateMany' ? updateToOps(opts.update) : patchOps(opts.ops, undefined);
      const ids = matchMany(svc, org, who, def, opts, ACCESS.update);
      const updatedIds = await patchMany(svc, org, who, def, ids, ops, {
        mergeDocuments: opts.mergeDocuments === true,
        dryRun,
      });
      return { kind: 'value', value: { updatedIds } };
    }
    case 'deleteOne': {
      const { id } = matchOne(svc, org, who, def, opts.match, false);
      await deleteTriggered(svc, org, who, def, id, { dryRun });
      return { kind: 'value', value: true };
    }
    case 'deleteMany':
      return {
        kind: 'value',
        value: await deleteMany(svc, org, who, def, matchMany(svc, org, who, def, opts, ACCESS.delete), { dryRun }),
      };
  }
}

/**
 * `dryRun` is a dry run only when it is `true`; anything else but `false` or unset (`null`, as the
 * original clients send it) is refused, since reading `"true"` or `1` as "not a dry run" performed
 * the very write the caller meant to try.
 */
function dryRunOption(opts: Options): boolean {
  const value = opts.dryRun;
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    throw fault('invalidArgument', 'dryRun', { path: 'dryRun', reason: 'dryRun is true or false.' });
  }
  return value;
}

/** Collects a bulk's items for the list envelope (bounded; NDJSON streams any number). */
export async function collectItems(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) {
    if (out.length === MAX_BULK_ENVELOPE_ITEMS) {
      throw fault('tooLarge', 'bulk', {
        reason: `More than ${MAX_BULK_ENVELOPE_ITEMS} results; ask for application/x-ndjson to stream them.`,
      });
    }
    out.push(item);
  }
  return out;
}
