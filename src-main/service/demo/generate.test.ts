import { describe, expect, it } from 'vitest';
import { DemoGenerator, iso } from './generate.js';
import { Rng } from './random.js';

describe('iso', () => {
  it('formats every time as Date#toISOString does, in order and out of order', () => {
    const rng = new Rng(11);
    const start = Date.UTC(1940, 0, 1);
    const span = Date.UTC(2030, 0, 1) - start;
    let ms = start;
    for (let i = 0; i < 20_000; i++) {
      // Mostly small steps forward (records in time order), sometimes a jump anywhere.
      ms = rng.chance(0.1) ? start + rng.int(span) : ms + rng.int(3 * 3600_000);
      expect(iso(ms)).toBe(new Date(ms).toISOString());
    }
    for (const edge of [
      0,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1969, 11, 31),
    ]) {
      expect(iso(edge)).toBe(new Date(edge).toISOString());
    }
  });
});

describe('DemoGenerator', () => {
  const plan = { seed: 4, total: 250, offset: 10, end: Date.UTC(2026, 0, 1), batchSize: 100, idCounter: 'abcdef0123' };

  it('gives the same batches for the same plan, in batches of batchSize, then undefined', () => {
    const sizes = (g: DemoGenerator) => {
      const out: number[] = [];
      for (let b = g.next(); b; b = g.next()) out.push(b.accounts.length);
      return out;
    };
    expect(sizes(new DemoGenerator(plan))).toEqual([100, 100, 50]);
    expect(new DemoGenerator(plan).next()).toEqual(new DemoGenerator(plan).next());
  });

  it('writes each record as the JSON text of its document, accounts with their roles beside', () => {
    const batch = new DemoGenerator(plan).next()!;
    const first = batch.accounts[0]!;
    const doc = JSON.parse(first.text) as { email: string; roles: string[]; created: string };
    expect(doc.email).toMatch(/^[a-z]+\.[a-z]+\.10@demo\.example$/); // numbered after the org's 10
    expect(first.roles).toEqual(doc.roles);
    expect(first._id.endsWith('abcdef0124')).toBe(true);
    // Ids are in creation order.
    const created = batch.accounts.map((a) => (JSON.parse(a.text) as { created: string }).created);
    expect([...created].sort()).toEqual(created);
    expect(batch.accounts.map((a) => a._id)).toEqual(batch.accounts.map((a) => a._id).sort());
  });
});
