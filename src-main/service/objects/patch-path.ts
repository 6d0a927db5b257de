/**
 * The paths PATCH operations address (docs/compatibility.md#patch-and-put) and the JSON they work on: `a.b`,
 * `a/b` or `/a/b` as segments, with prototype segments and over-deep paths refused, and the
 * fault every malformed operation answers with. Shared by the parsing (patch-ops.ts) and the
 * applying (patch-apply.ts) of operations.
 */
import { fault, type FaultError } from '../../../src-shared/faults.js';

/** Deeper paths than this are refused; records are not that deep. */
export const MAX_PATH_DEPTH = 32;

/** Segments that would reach an object's prototype if a later step ever used a naive assignment. */
export const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isPrimitive(value: unknown): value is null | boolean | number | string {
  return value === null || ['boolean', 'number', 'string'].includes(typeof value);
}

export function dotted(path: string[]): string {
  return path.join('.');
}

export function badOp(path: string[] | string, reason: string): FaultError {
  return fault('invalidArgument', 'patchOp', { reason, path: typeof path === 'string' ? path : dotted(path) });
}

/** `a.b`, `a/b`, `/a/b` → ['a','b']; refuses empty and prototype segments. */
export function parsePath(raw: unknown, where = ''): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw !== 'string') throw badOp(where, 'An operation path must be a string.');
  const segments = raw.replace(/^\//, '').split(/[./]/);
  for (const segment of segments) {
    if (segment === '') throw badOp(raw, 'An operation path has an empty segment.');
    if (FORBIDDEN_SEGMENTS.has(segment)) throw badOp(raw, `"${segment}" cannot be part of a path.`);
  }
  if (segments.length > MAX_PATH_DEPTH) throw badOp(raw, `A path has at most ${MAX_PATH_DEPTH} segments.`);
  return segments;
}
