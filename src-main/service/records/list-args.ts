import { fault } from '../../../src-shared/faults.js';
import type { RawListArgs } from '../../../src-shared/query/parse.js';
import { queryFault } from '../../../src-shared/query/faults.js';

const SINGLE = ['where', 'sort', 'skip', 'limit'] as const;
const LIST_ARGUMENTS: readonly string[] = [...SINGLE, 'paths'];

/**
 * Trust boundary: picks the list arguments (optionally with a `prefix.`, e.g. `connections.`) out
 * of a parsed query string. Arguments given twice, or in a bracketed form other than `paths[]`,
 * are refused rather than silently picked or ignored.
 */
export function rawListArgs(query: Record<string, unknown> | undefined, prefix: string): RawListArgs {
  const q = query ?? {};
  refuseBracketed(q, prefix);
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

/**
 * `where[name.last]=Smith`, `limit[]=5`, `sort[created]=-1`, `paths[0]=email` (qs-style encodings)
 * were read as absent, so the caller got the default unfiltered page believing it filtered.
 * Other query keys stay free: clients add cache busters and the like.
 */
function refuseBracketed(q: Record<string, unknown>, prefix: string): void {
  for (const key of Object.keys(q)) {
    const open = key.indexOf('[');
    if (open === -1 || key === `${prefix}paths[]` || !key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length, open);
    if (!LIST_ARGUMENTS.includes(name)) continue;
    const form = name === 'paths' ? `${prefix}paths[]=<path>, once per path` : `${prefix}${name}=<value>`;
    throw queryFault(`${key} is not understood; send ${form}.`, key);
  }
}
