import { describe, expect, it } from 'vitest';
import { threadBatches, workerBatches } from './batch-source.js';

const plan = { seed: 3, total: 120, offset: 0, end: Date.UTC(2026, 0, 1), batchSize: 50, idCounter: '0a0b0c0d0e' };

describe('batch sources', () => {
  it('a worker gives the same batches as the thread, then undefined', async () => {
    const inThread = threadBatches(plan);
    const inWorker = await workerBatches(plan);
    try {
      for (let k = 0; k < 3; k++) expect(await inWorker.next()).toEqual(await inThread.next());
      expect(await inWorker.next()).toBeUndefined();
      expect(await inThread.next()).toBeUndefined();
    } finally {
      await inWorker.close();
    }
  });

  it('two workers give the same batches, in order, as the thread', async () => {
    const many = { ...plan, total: 1000, batchSize: 60 };
    const inThread = threadBatches(many);
    const inWorkers = await workerBatches(many, 2);
    try {
      for (let k = 0; k < 17; k++) expect(await inWorkers.next()).toEqual(await inThread.next());
      expect(await inWorkers.next()).toBeUndefined();
      expect(await inWorkers.next()).toBeUndefined();
    } finally {
      await inWorkers.close();
    }
  });

  it("rejects the caller's next batch when the worker fails, instead of waiting forever", async () => {
    // An id counter that is not hex makes the worker's generator throw as it starts.
    const broken = await workerBatches({ ...plan, idCounter: 'not hex' });
    try {
      await expect(broken.next()).rejects.toThrow(/BigInt|not hex|SyntaxError/);
      await expect(broken.next()).rejects.toThrow();
    } finally {
      await broken.close();
    }
  });
});
