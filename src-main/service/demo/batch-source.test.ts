import { describe, expect, it } from 'vitest';
import { threadBatches, workerBatches } from './batch-source.js';

const plan = { seed: 3, total: 120, offset: 0, end: Date.UTC(2026, 0, 1), batchSize: 50, idCounter: '0a0b0c0d0e' };

describe('batch sources', () => {
  it.each([
    { workers: 1, plan },
    { workers: 2, plan: { ...plan, total: 1000, batchSize: 60 } },
  ])('$workers worker(s) give the same batches, in order, as the thread, then undefined', async (c) => {
    const inThread = threadBatches(c.plan);
    const inWorkers = await workerBatches(c.plan, c.workers);
    try {
      for (let k = 0; k * c.plan.batchSize < c.plan.total; k++) {
        expect(await inWorkers.next()).toEqual(await inThread.next());
      }
      expect(await inWorkers.next()).toBeUndefined();
      expect(await inWorkers.next()).toBeUndefined();
      expect(await inThread.next()).toBeUndefined();
    } finally {
      await inWorkers.close();
    }
  });

  it("rejects the caller's next batch when the worker fails, instead of waiting forever", async () => {
    // An id counter that is not hex makes the worker's generator throw as it starts.
    const broken = await workerBatches({ ...plan, idCounter: 'not hex' });
    try {
      await expect(broken.next()).rejects.toThrow(/not hex/);
      await expect(broken.next()).rejects.toThrow();
    } finally {
      await broken.close();
    }
  });
});
