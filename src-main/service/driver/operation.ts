/**
 * What a driver operation takes and answers (docs/driver.md): the twelve operation
 * names, the limits on many-record writes and bulks, the context a route or script passes, and
 * the result before presentation. Shared by every part of the driver, so it imports none of them.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Presented } from '../records/presentation.js';

export const DRIVER_OPERATIONS = [
  'cursor',
  'count',
  'readOne',
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'patchOne',
  'patchMany',
  'deleteOne',
  'deleteMany',
  'bulk',
] as const;
export type DriverOperation = (typeof DRIVER_OPERATIONS)[number];

/** Documents in one insertMany. */
export const MAX_INSERT_MANY = 1000;
/** Records one updateMany/patchMany/deleteMany changes; more matches without a `limit` is refused. */
export const MAX_WRITE_MANY = 10_000;
/** Operations in one bulk, and how deep bulks may nest. */
export const MAX_BULK_OPS = 1000;
export const MAX_BULK_DEPTH = 3;
/** Items a bulk collects when answered as one list envelope (stream with NDJSON for more). */
export const MAX_BULK_ENVELOPE_ITEMS = 10_000;

export interface DriverContext {
  /** Return `cursor` and `bulk` output as an async iterable (NDJSON) instead of one page. */
  stream?: boolean;
  /** The caller's token carries `service/rls`: the `roles` option is honoured. */
  tokenRoles?: boolean;
  /**
   * The options come from trusted code (a script an administrator wrote), not from the caller:
   * `skipAcl`, `grant` and `roles` are honoured whoever the caller is.
   */
  trustedOptions?: boolean;
  /** Bulk nesting and the path of the enclosing bulk operation (internal). */
  depth?: number;
  bulkPath?: string;
  /**
   * A script's cursor continuing where its last page ended (the sort-key values the page answered
   * as `next`, records/walk.ts): never part of the options a client sends.
   */
  after?: readonly unknown[];
}

/**
 * What an operation answers, before presentation: the route wraps a `value` in
 * `{object:"result", data}` and a `list` in the list envelope; a script gets them bare.
 */
export type DriverResult =
  | { kind: 'value'; value: unknown }
  | { kind: 'record'; record: Presented }
  | { kind: 'list'; data: unknown[]; hasMore: boolean; next?: unknown[] }
  | { kind: 'stream'; items: AsyncIterable<unknown> };

export type Options = Record<string, unknown>;

export function isDriverOperation(name: string): name is DriverOperation {
  return (DRIVER_OPERATIONS as readonly string[]).includes(name);
}

/** Driver options are a JSON object (absent means none). */
export function asOptions(options: unknown): Options {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw fault('invalidArgument', 'options', { reason: 'Driver options are a JSON object.' });
  }
  return options as Options;
}
