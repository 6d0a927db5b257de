import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, DemoGenerator, iso, type GeneratedBatch } from './generate.js';
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

  it('generates any batch alone, in any order, and the records do not depend on the batch size', () => {
    const all = (g: DemoGenerator) => {
      const out: GeneratedBatch[] = [];
      for (let b = g.next(); b; b = g.next()) out.push(b);
      return out;
    };
    const texts = (batches: GeneratedBatch[]) =>
      (['accounts', 'conversations', 'patientfiles', 'connections'] as const).map((kind) =>
        batches.flatMap((b) => b[kind].map((r) => `${r._id} ${r.text}`)),
      );
    const big = { ...plan, total: 2 * BLOCK_SIZE + 300, batchSize: BLOCK_SIZE };
    const inOrder = all(new DemoGenerator(big));
    // Batch 2 first, then 0, from a fresh generator: the same batches.
    const alone = new DemoGenerator(big);
    expect(alone.batch(2)).toEqual(inOrder[2]);
    expect(alone.batch(0)).toEqual(inOrder[0]);
    expect(alone.batch(3)).toBeUndefined();
    // Batch sizes across block boundaries (700) and one block (1000) give the same records.
    for (const batchSize of [700, BLOCK_SIZE, 5000]) {
      expect(texts(all(new DemoGenerator({ ...big, batchSize })))).toEqual(texts(inOrder));
    }
    // Ids are unique and in creation order across blocks.
    const ids = texts(inOrder)[0]!.map((t) => t.slice(0, 24));
    expect(new Set(ids).size).toBe(big.total);
    expect([...ids].sort()).toEqual(ids);
    // Another seed gives other records.
    expect(new DemoGenerator({ ...big, seed: 5 }).batch(0)).not.toEqual(inOrder[0]);
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
