import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { parseListQuery, type RawListArgs } from '../../../src-shared/query/parse.js';
import type { ParseOptions } from '../../../src-shared/query/parse-where.js';

/** Arguments longer than this (all of them together) are parsed every time, never kept. */
export const MAX_CACHED_ARGS_LENGTH = 2048;
/** Parsed queries kept per definition; the oldest goes first. */
export const MAX_CACHED_PER_DEF = 256;

/**
 * Parsed list queries, by the raw arguments that produced them, per definition object.
 *
 * A client or a console grid asks the same few questions over and over, and parsing one (the
 * `where` and `sort` JSON, operators, paths checked against the definition, values such as dates
 * normalised) cost about a tenth of a 100-record page's CPU. A parse depends only on the raw text,
 * the definition and the org's negation setting, so the result is kept per definition object: the
 * definition repository gives a changed definition a new object (see `DefinitionRepository`), so
 * a schema change misses here and the old entries go with the old object. Faults are not kept:
 * bad input is parsed (and refused) every time. Entries are frozen, since every request shares them.
 */
export class ParsedListQueries {
  private readonly byDef = new WeakMap<ObjectDef, Map<string, ListQuery>>();

  parse(raw: RawListArgs, def: ObjectDef, options: ParseOptions = {}): ListQuery {
    const key = keyOf(raw, options);
    if (key === undefined) return parseListQuery(raw, def, options);
    let kept = this.byDef.get(def);
    if (kept === undefined) {
      kept = new Map();
      this.byDef.set(def, kept);
    }
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const query = deepFreeze(parseListQuery(raw, def, options));
    if (kept.size >= MAX_CACHED_PER_DEF) kept.delete(kept.keys().next().value as string);
    kept.set(key, query);
    return query;
  }
}

/** One string for the arguments, or undefined when they are too long to keep. */
function keyOf(raw: RawListArgs, options: ParseOptions): string | undefined {
  const key = JSON.stringify([
    options.allowNegations === false,
    raw.where ?? null,
    raw.sort ?? null,
    raw.skip ?? null,
    raw.limit ?? null,
    raw.paths ?? null,
  ]);
  return key.length > MAX_CACHED_ARGS_LENGTH ? undefined : key;
}

/** The AST is plain data (ast.ts): objects, arrays and scalars. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
