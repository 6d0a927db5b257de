import { fault } from '../../../src-shared/faults.js';
import type { RawListArgs } from '../../../src-shared/query/parse.js';

const SINGLE = ['where', 'sort', 'skip', 'limit'] as const;

/**
 * Trust boundary: picks the list arguments (optionally with a `prefix.`, e.g. `connections.`) out
 * of a parsed query string. Arguments given twice are refused rather than silently picked.
 */
export function rawListArgs(query: Record<string, unknown> | undefined, prefix: string): RawListArgs {
  const q = query ?? {};
  const out: RawListArgs = {};
  for (const name of SINGLE) {
    const value = q[prefix + name];
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      throw fault('invalidArgument', 'query', {
        path: prefix + name,
        reason: `${prefix + name} was given more than once.`,
      });
    }
    out[name] = value;
  }
  const paths = q[`${prefix}paths[]`] ?? q[`${prefix}paths`];
  if (paths !== undefined) out.paths = Array.isArray(paths) ? paths.map(String) : [String(paths)];
  return out;
}
