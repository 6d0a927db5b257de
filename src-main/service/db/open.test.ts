import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './open.js';

let db: Db;
beforeEach(() => {
  db = openDatabase({ file: ':memory:' });
});
afterEach(() => db.close());

describe('openDatabase', () => {
  it('lets temporary B-trees spill to files: in memory a large GROUP BY had no bound (570 MB at 10M)', () => {
    expect(db.pragma('temp_store', { simple: true })).toBe(1); // 1 = FILE, 2 = MEMORY
  });

  it('caps the page cache (32 MiB), which also bounds what a temporary B-tree holds before it spills', () => {
    expect(db.pragma('cache_size', { simple: true })).toBe(-32768);
  });
});
