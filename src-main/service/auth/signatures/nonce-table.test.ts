import { describe, expect, it } from 'vitest';
import { NonceTable } from './nonce-table.js';

const NOW = 1_700_000_000_000;

/** A deterministic stream of numbers in [0, 1). */
function randomFrom(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('NonceTable', () => {
  it('remembers a nonce in any letter case, and replaces its expiry', () => {
    const table = new NonceTable();
    expect(table.get('abcdefghijklmnop')).toBeUndefined();
    table.set('abcdefghijklmnop', NOW + 5, NOW);
    expect(table.get('ABCDEFGHIJKLMNOP')).toBe(NOW + 5);
    table.set('AbCdEfGhIjKlMnOp', NOW + 9, NOW);
    expect(table.get('abcdefghijklmnop')).toBe(NOW + 9);
    expect(table.size).toBe(1);
  });

  it('tells apart nonces that differ in one place, first and last halves alike', () => {
    const table = new NonceTable();
    const base = '0000000000000000';
    table.set(base, NOW, NOW);
    for (let i = 0; i < 16; i++) {
      for (const c of ['1', 'z']) {
        const other = base.slice(0, i) + c + base.slice(i + 1);
        expect(table.get(other), other).toBeUndefined();
      }
    }
    table.set('zzzzzzzzzzzzzzzz', NOW + 1, NOW); // the largest key
    expect(table.get('zzzzzzzzzzzzzzzz')).toBe(NOW + 1);
    expect(table.get(base)).toBe(NOW);
  });

  it('refuses what is not a nonce', () => {
    const table = new NonceTable();
    expect(() => table.get('short')).toThrow(/16 characters/);
    expect(() => table.set('abcdefghijklmno!', NOW, NOW)).toThrow(/letters and digits/);
    expect(() => table.get('abcdefghijklmno[')).toThrow(/letters and digits/); // [ | 0x20 is {
  });

  it('keeps every entry through growth, and drops only expired ones when it rebuilds', () => {
    const table = new NonceTable();
    const nonce = (i: number) => i.toString(36).padStart(16, '0');
    for (let i = 0; i < 5000; i++) table.set(nonce(i), NOW + i, NOW); // grows several times
    expect(table.size).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(table.get(nonce(i))).toBe(NOW + i);
    expect(table.prune(NOW + 1000)).toBe(1000);
    expect(table.size).toBe(4000);
    expect(table.get(nonce(999))).toBeUndefined();
    expect(table.get(nonce(1000))).toBe(NOW + 1000);
    expect(table.prune(NOW + 10_000)).toBe(4000);
    expect(table.size).toBe(0);
  });

  it('doubles, not quadruples, when it grows', () => {
    const table = new NonceTable();
    const capacity = () => (table as unknown as { capacity: number }).capacity;
    const grownAt: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      const before = capacity();
      table.set(i.toString(36).padStart(16, '0'), NOW + 1000, NOW);
      if (capacity() !== before) grownAt.push(capacity() / before);
    }
    expect(grownAt.length).toBeGreaterThan(5);
    expect(grownAt.every((factor) => factor === 2)).toBe(true);
    expect(capacity()).toBe(524_288); // 200,000 live entries at a load of 0.38
  });

  it('never grows on a prune, and shrinks when most entries have expired', () => {
    const table = new NonceTable();
    const capacity = () => (table as unknown as { capacity: number }).capacity;
    for (let i = 0; i < 600; i++) table.set(i.toString(36).padStart(16, '0'), NOW + i, NOW); // load 0.59
    expect(capacity()).toBe(1024);
    expect(table.prune(NOW)).toBe(0);
    expect(capacity()).toBe(1024); // it was rebuilt for a load of 0.35, at 2,048 slots
    for (let i = 600; i < 100_000; i++) table.set(i.toString(36).padStart(16, '0'), NOW + i, NOW);
    expect(capacity()).toBe(262_144);
    expect(table.prune(NOW + 90_000)).toBe(90_000);
    expect(capacity()).toBe(32_768); // 10,000 kept: the smallest table at a load of at most 0.5
    expect(table.get((99_999).toString(36).padStart(16, '0'))).toBe(NOW + 99_999);
  });

  it('stays small under a steady stream of short-lived nonces, with no prune between', () => {
    const table = new NonceTable();
    const capacity = () => (table as unknown as { capacity: number }).capacity;
    // 100,000 inserts, each live for 200 ms at one insert a millisecond: never more than 201 live.
    for (let i = 0; i < 100_000; i++) table.set(i.toString(36).padStart(16, '0'), NOW + i + 200, NOW + i);
    expect(capacity()).toBe(1024); // rebuilt at each growth point for the live entries only
    expect(table.size).toBeLessThanOrEqual(Math.ceil(1024 * 0.7));
    expect(table.get((99_999).toString(36).padStart(16, '0'))).toBe(NOW + 99_999 + 200);
  });

  it('agrees with a Map through random sets, lookups, prunes and growth', () => {
    const random = randomFrom(11);
    const table = new NonceTable();
    const model = new Map<string, number>();
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    // A small pool of nonces, so sets often hit one already there; random case on every use.
    const pool = Array.from({ length: 4000 }, () =>
      Array.from({ length: 16 }, () => alphabet[Math.floor(random() * 36)]).join(''),
    );
    const anyCase = (n: string) => [...n].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');
    let now = NOW;
    for (let step = 0; step < 40_000; step++) {
      now += Math.floor(random() * 3);
      const nonce = pool[Math.floor(random() * pool.length)]!;
      const r = random();
      if (r < 0.001) {
        const dropped = [...model].filter(([, e]) => e < now).length;
        expect(table.prune(now)).toBe(dropped);
        for (const [k, e] of model) if (e < now) model.delete(k);
      } else if (r < 0.5) {
        const expires = now + Math.floor(random() * 2000);
        table.set(anyCase(nonce), expires, now);
        model.set(nonce, expires);
      } else {
        const got = table.get(anyCase(nonce));
        const want = model.get(nonce);
        // An expired entry may be gone after a rebuild: only live entries must be found.
        if (want !== undefined && want >= now) expect(got, `step ${step}`).toBe(want);
        else if (got !== undefined) expect(got).toBe(want);
      }
      // A rebuild during `set` may drop expired entries the model still holds.
      if (table.size < model.size)
        for (const [k, e] of model) if (e < now && table.get(k) === undefined) model.delete(k);
      expect(table.size).toBe(model.size);
    }
  });
});
