import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './open.js';
import { withParallelSorter } from './parallel-sorter.js';

let db: Db;
beforeEach(() => {
  db = openDatabase({ file: ':memory:' });
});
afterEach(() => db.close());

const settings = () => ({
  threads: db.pragma('threads', { simple: true }),
  tempStore: db.pragma('temp_store', { simple: true }),
  cacheSize: db.pragma('cache_size', { simple: true }),
});

describe('withParallelSorter', () => {
  it('lets the sorter spill to files with two helper threads for the work, then restores the connection', () => {
    const before = settings();
    expect(before).toEqual({ threads: 0, tempStore: 1, cacheSize: -32768 });
    const inside = withParallelSorter(db, () => {
      db.exec('CREATE TABLE t (k TEXT)');
      db.exec('CREATE INDEX t_k ON t (k)');
      return settings();
    });
    expect(inside).toEqual({ threads: 2, tempStore: 1, cacheSize: -8192 });
    expect(settings()).toEqual(before);
  });

  it('restores the connection when the work fails', () => {
    const before = settings();
    expect(() =>
      withParallelSorter(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(settings()).toEqual(before);
  });
});
