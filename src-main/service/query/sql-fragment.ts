/** A piece of SQL with its bound parameters, in placeholder order. Values never enter `sql`. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export function sql(text: string, ...params: unknown[]): SqlFragment {
  return { sql: text, params };
}

/** Joins fragments with a separator, keeping parameters in placeholder order. */
export function joinFragments(fragments: readonly SqlFragment[], separator: string): SqlFragment {
  return { sql: fragments.map((f) => f.sql).join(separator), params: fragments.flatMap((f) => f.params) };
}

/** `(a AND b)`; an empty list is TRUE. */
export function and(fragments: readonly SqlFragment[]): SqlFragment {
  if (fragments.length === 0) return sql('1');
  if (fragments.length === 1 && fragments[0]) return fragments[0];
  const joined = joinFragments(fragments, ' AND ');
  return { sql: `(${joined.sql})`, params: joined.params };
}

/** `(a OR b)`; an empty list is FALSE. */
export function or(fragments: readonly SqlFragment[]): SqlFragment {
  if (fragments.length === 0) return sql('0');
  if (fragments.length === 1 && fragments[0]) return fragments[0];
  const joined = joinFragments(fragments, ' OR ');
  return { sql: `(${joined.sql})`, params: joined.params };
}

export function not(fragment: SqlFragment): SqlFragment {
  return { sql: `NOT ${fragment.sql}`, params: fragment.params };
}

/** Wraps a fragment, e.g. `wrap('EXISTS (SELECT … WHERE ', f, ')')`. */
export function wrap(before: string, fragment: SqlFragment, after: string, ...beforeParams: unknown[]): SqlFragment {
  return { sql: `${before}${fragment.sql}${after}`, params: [...beforeParams, ...fragment.params] };
}
