/**
 * `bulk`: a list of driver operations run in order, answered as a stream of items. Each operation
 * goes back through the driver's one entry, which the caller passes in as `run` (driver.ts calls
 * this module, so importing it back would be a cycle).
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import {
  asOptions,
  isDriverOperation,
  MAX_BULK_DEPTH,
  MAX_BULK_OPS,
  type DriverContext,
  type DriverResult,
  type Options,
} from './operation.js';

/** The driver's entry (`runDriverOperation`), as bulk calls it for each of its operations. */
export type RunOperation = (
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  operation: string,
  options: unknown,
  context: DriverContext,
) => Promise<DriverResult>;

interface BulkOp extends Options {
  operation?: unknown;
  object?: unknown;
  halt?: unknown;
  wrap?: unknown;
  output?: unknown;
  name?: unknown;
}

function bulkOps(options: unknown): BulkOp[] {
  const ops = Array.isArray(options) ? options : (asOptions(options).ops as unknown);
  if (!Array.isArray(ops)) throw fault('invalidArgument', 'bulk', { path: 'ops', reason: 'bulk takes ops: [...].' });
  if (ops.length > MAX_BULK_OPS) {
    throw fault('tooLarge', 'bulk', { path: 'ops', reason: `A bulk holds at most ${MAX_BULK_OPS} operations.` });
  }
  return ops.map((op, i) => {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw fault('invalidArgument', 'bulk', { path: `ops.${i}`, reason: 'Each bulk operation is an object.' });
    }
    return op as BulkOp;
  });
}

/**
 * `bulk` runs its operations in order and streams one item per result: wrapped (default) as
 * `{_id, object:"operationResult", path, timestamp, data}`, raw with `wrap:false`, nothing with
 * `output:false`. A cursor gives one item per record. A failing operation stops the bulk (its
 * fault ends the stream) unless it has `halt:false`: then its fault is written as an item and the
 * bulk goes on. Bulks nest at most MAX_BULK_DEPTH deep.
 */
export function bulk(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  options: unknown,
  context: DriverContext,
  run: RunOperation,
): DriverResult {
  const depth = (context.depth ?? 0) + 1;
  if (depth > MAX_BULK_DEPTH) {
    throw fault('invalidArgument', 'bulk', { reason: `Bulk operations nest at most ${MAX_BULK_DEPTH} deep.` });
  }
  const ops = bulkOps(options);
  ops.forEach((op, i) => {
    if (typeof op.operation !== 'string' || !isDriverOperation(op.operation)) {
      throw fault('invalidArgument', 'operation', { path: `ops.${i}.operation`, reason: 'Unknown driver operation.' });
    }
  });
  const items = runBulk(svc, org, caller, objectName, ops, { ...context, depth, stream: true }, run);
  return { kind: 'stream', items };
}

async function* runBulk(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  ops: BulkOp[],
  context: DriverContext,
  run: RunOperation,
): AsyncGenerator<unknown> {
  for (const [index, op] of ops.entries()) {
    const path = `${context.bulkPath ?? ''}${typeof op.name === 'string' ? op.name : index}`;
    const wrap = op.wrap !== false;
    const output = op.output !== false;
    const object = typeof op.object === 'string' ? op.object : objectName;
    const { operation, object: _o, halt: _h, wrap: _w, output: _out, name: _n, ...rest } = op;
    const item = (data: unknown) =>
      wrap ? { _id: svc.store.newId(), object: 'operationResult', path, timestamp: svc.nowIso(), data } : data;
    try {
      // A nested bulk's options are its ops (or `{ops}`); its items pass through as it made them.
      const nestedOptions = operation === 'bulk' ? (Array.isArray(rest.ops) ? rest.ops : rest) : rest;
      const result = await run(svc, org, caller, object, String(operation), nestedOptions, {
        ...context,
        bulkPath: `${path}.`,
      });
      if (result.kind === 'stream') {
        for await (const x of result.items) if (output) yield operation === 'bulk' ? x : item(x);
      } else if (result.kind === 'list') {
        for (const x of result.data) if (output) yield item(x);
      } else if (output) {
        yield item(result.kind === 'value' ? (result.value ?? null) : result.record);
      }
    } catch (e) {
      if (op.halt !== false || !(e instanceof FaultError)) throw e;
      yield { ...e.fault, path: e.fault.path ?? path };
    }
  }
}
