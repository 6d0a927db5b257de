/** Compiled forms kept per query; the oldest goes first. */
export const MAX_COMPILED_PER_QUERY = 16;

/**
 * Compiled SQL kept per parsed query object (issue 43). The parse caches (parsed-lists.ts) hand
 * every request asking the same question the same frozen query, so the SQL built from it can be
 * kept beside it: a `$group` pipeline's compile cost about 30 µs of a 100-group page, a request's
 * fixed cost. Only frozen queries are kept — a fresh parse is one request's own and would only
 * churn the map — and the callers keep only compiles with no condition the service adds (the
 * caller's readable condition carries the caller's values). Whatever else the SQL is built from
 * (the table, its key columns, which a migration can add, a pipeline's document properties) is the entry's
 * `context`, compared by identity: a different one replaces the entry.
 */
export class CompiledQueries<Q extends object, C extends object> {
  private readonly byQuery = new WeakMap<Q, { context: readonly unknown[]; byKey: Map<string, C> }>();

  get(query: Q, context: readonly unknown[], key: string, compile: () => C): C {
    if (!Object.isFrozen(query)) return compile();
    let kept = this.byQuery.get(query);
    if (kept === undefined || !sameContext(kept.context, context)) {
      kept = { context, byKey: new Map() };
      this.byQuery.set(query, kept);
    }
    const hit = kept.byKey.get(key);
    if (hit !== undefined) return hit;
    const compiled = freezeCompiled(compile());
    if (kept.byKey.size >= MAX_COMPILED_PER_QUERY) kept.byKey.delete(kept.byKey.keys().next().value as string);
    kept.byKey.set(key, compiled);
    return compiled;
  }
}

function sameContext(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** `{ sql, params }` and what else a compile answers: every request shares it. */
function freezeCompiled<C extends object>(compiled: C): C {
  for (const v of Object.values(compiled)) if (Array.isArray(v)) Object.freeze(v);
  return Object.freeze(compiled);
}
