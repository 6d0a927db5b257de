import { fault } from '../../../src-shared/faults.js';
import type { RawListArgs } from '../../../src-shared/query/parse.js';
import { queryFault } from '../../../src-shared/query/faults.js';

const SINGLE = ['where', 'sort', 'skip', 'limit'] as const;
/** The arguments that make a list an aggregation (records/aggregate.ts). */
const AGGREGATION = ['pipeline', 'group', 'map', 'nativePipeline'] as const;
/** Repeatable: `paths[]=a&paths[]=b`, and the selection arguments alike. */
const REPEATED = ['paths', 'expand', 'include'] as const;
const LIST_ARGUMENTS: readonly string[] = [...SINGLE, ...AGGREGATION, ...REPEATED];

/**
 * Trust boundary: picks the list arguments (optionally with a `prefix.`, e.g. `connections.`) out
 * of a parsed query string. Arguments given twice, or in a bracketed form other than `paths[]`,
 * are refused rather than silently picked or ignored.
 */
export function rawListArgs(q: Record<string, unknown> | undefined, prefix: string): RawListArgs {
  // No query string at all (most one-record reads): nothing to pick, nothing to refuse.
  if (q === undefined || isEmpty(q)) return {};
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
  for (const name of REPEATED) {
    const values = q[`${prefix}${name}[]`] ?? q[`${prefix}${name}`];
    if (values !== undefined) out[name] = Array.isArray(values) ? values.map(String) : [String(values)];
  }
  return out;
}

function isEmpty(q: Record<string, unknown>): boolean {
  for (const key in q) if (Object.hasOwn(q, key)) return false;
  return true;
}

/**
 * `where[name.last]=Smith`, `limit[]=5`, `sort[created]=-1`, `paths[0]=email` (qs-style encodings)
 * were read as absent, so the caller got the default unfiltered page believing it filtered.
 * Other query keys stay free: clients add cache busters and the like.
 */
function refuseBracketed(q: Record<string, unknown>, prefix: string): void {
  for (const key of Object.keys(q)) {
    const open = key.indexOf('[');
    if (open === -1 || REPEATED.some((r) => key === `${prefix}${r}[]`) || !key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length, open);
    if (!LIST_ARGUMENTS.includes(name)) continue;
    const form = (REPEATED as readonly string[]).includes(name)
      ? `${prefix}${name}[]=<path>, once per path`
      : `${prefix}${name}=<value>`;
    throw queryFault(`${key} is not understood; send ${form}.`, key);
  }
}

/** `pipeline`, `group`, `map` and `nativePipeline` as given (each once), for parseAggregation. */
export function rawAggregationArgs(
  query: Record<string, unknown> | undefined,
  prefix: string,
): Partial<Record<(typeof AGGREGATION)[number], string>> | undefined {
  const q = query ?? {};
  let out: Partial<Record<(typeof AGGREGATION)[number], string>> | undefined;
  for (const name of AGGREGATION) {
    const value = q[prefix + name];
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      throw fault('invalidArgument', 'query', {
        path: prefix + name,
        reason: `${prefix + name} was given more than once.`,
      });
    }
    (out ??= {})[name] = value;
  }
  return out;
}

/**
 * Lists that are not of records (`GET /schemas`) take the plain list arguments only: the selection
 * and aggregation arguments are refused by name rather than ignored.
 */
export function assertPlainListArgs(query: Record<string, unknown> | undefined, what: string): void {
  const raw = rawListArgs(query, '');
  const name =
    (['expand', 'include'] as const).find((k) => raw[k] !== undefined) ??
    Object.keys(rawAggregationArgs(query, '') ?? {})[0];
  if (name) {
    throw fault('unsupportedOperation', undefined, {
      path: name,
      reason: `${what} does not take ${name}; it applies to record lists.`,
    });
  }
}
