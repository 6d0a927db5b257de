import { describe, expect, it } from 'vitest';
import { CompiledQueries, MAX_COMPILED_PER_QUERY } from './compiled-queries.js';

const frozen = <T extends object>(v: T) => Object.freeze(v);

describe('CompiledQueries', () => {
  it('compiles a shared (frozen) query once per key and context, and shares a frozen answer', () => {
    const kept = new CompiledQueries<object, { sql: string; params: unknown[] }>();
    const query = frozen({ q: 1 });
    const columns = new Map();
    let compiles = 0;
    const compile = () => ({ sql: `SELECT ${++compiles}`, params: [0] });
    const first = kept.get(query, ['t', columns], 'k', compile);
    expect(kept.get(query, ['t', columns], 'k', compile)).toBe(first);
    expect(compiles).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.params)).toBe(true);
    expect(kept.get(query, ['t', columns], 'other', compile).sql).toBe('SELECT 2');
  });

  it('compiles again when anything of the context is another object (a table, new key columns)', () => {
    const kept = new CompiledQueries<object, { sql: string }>();
    const query = frozen({ q: 1 });
    let compiles = 0;
    const compile = () => ({ sql: String(++compiles) });
    const columns = new Map();
    kept.get(query, ['t', columns], 'k', compile);
    expect(kept.get(query, ['u', columns], 'k', compile).sql).toBe('2');
    expect(kept.get(query, ['u', new Map()], 'k', compile).sql).toBe('3');
    expect(kept.get(query, ['u', new Map(), 'more'], 'k', compile).sql).toBe('4');
  });

  it('never keeps a query that is not frozen: it is one request’s own', () => {
    const kept = new CompiledQueries<object, { sql: string }>();
    const query = { q: 1 };
    let compiles = 0;
    const compile = () => ({ sql: String(++compiles) });
    kept.get(query, [], 'k', compile);
    kept.get(query, [], 'k', compile);
    expect(compiles).toBe(2);
  });

  it('keeps at most MAX_COMPILED_PER_QUERY compiles of one query, the oldest going first', () => {
    const kept = new CompiledQueries<object, { sql: string }>();
    const query = frozen({ q: 1 });
    let compiles = 0;
    const compile = () => ({ sql: String(++compiles) });
    for (let i = 0; i <= MAX_COMPILED_PER_QUERY; i++) kept.get(query, [], `k${i}`, compile);
    expect(compiles).toBe(MAX_COMPILED_PER_QUERY + 1);
    kept.get(query, [], `k${MAX_COMPILED_PER_QUERY}`, compile); // still kept
    expect(compiles).toBe(MAX_COMPILED_PER_QUERY + 1);
    kept.get(query, [], 'k0', compile); // went out
    expect(compiles).toBe(MAX_COMPILED_PER_QUERY + 2);
  });
});
