import { Worker } from 'node:worker_threads';
import { resolveWorkerUrl } from '../workers/bundled-worker.js';
import { DemoGenerator, type GeneratedBatch, type GenerationPlan } from './generate.js';

/** Where the seeder's batches come from: its own thread, or a worker generating ahead. */
export interface BatchSource {
  /** The next batch, or undefined after the last. */
  next(): Promise<GeneratedBatch | undefined>;
  /** Stops generating (also when the seeding ends early). */
  close(): Promise<void>;
}

/** Generates each batch when asked, in the caller's thread (small seeds: no worker to start). */
export function threadBatches(plan: GenerationPlan): BatchSource {
  const generator = new DemoGenerator(plan);
  return { next: () => Promise.resolve(generator.next()), close: () => Promise.resolve() };
}

/**
 * Batches asked for ahead of the one being written, per generator worker. With one in all, the
 * worker sat idle about a fifth of a bulk seed: it finished batch k+1 while the writer was still on
 * batch k, and heard of k+2 only once k+1 had been handed over. A 50,000-account batch is about
 * 20 MB of text.
 */
export const BATCHES_AHEAD_PER_WORKER = 2;

interface Pending {
  resolve(b: GeneratedBatch | undefined): void;
  reject(e: Error): void;
}

/**
 * Generates in `workers` worker threads, batch k in worker k mod `workers`, several batches ahead:
 * while the caller writes batch k, the workers build the next ones on the other cores. Batches
 * come back in order and are the same as `threadBatches` gives (generate.ts: every batch can be
 * generated alone).
 */
export async function workerBatches(plan: GenerationPlan, workers = 1): Promise<BatchSource> {
  const url = await resolveWorkerUrl('seed-worker');
  const pool = Array.from({ length: Math.max(1, workers) }, () => new Worker(url, { workerData: plan }));
  const pending = new Map<number, Pending>();
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure ??= e;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  for (const worker of pool) {
    worker.on('message', ({ k, batch }: { k: number; batch: GeneratedBatch | null }) => {
      pending.get(k)?.resolve(batch ?? undefined);
      pending.delete(k);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a demo data worker stopped (exit code ${code})`)));
  }
  let asked = 0;
  const ask = () => {
    const k = asked++;
    const answer = new Promise<GeneratedBatch | undefined>((resolve, reject) => {
      if (failure) return reject(failure);
      pending.set(k, { resolve, reject });
      pool[k % pool.length]!.postMessage(k);
    });
    // A rejection of a batch asked ahead surfaces when it is awaited, not as unhandled.
    answer.catch(() => undefined);
    return answer;
  };
  const ahead = Array.from({ length: BATCHES_AHEAD_PER_WORKER * pool.length }, ask);
  return {
    async next() {
      // Empty only after the last batch (no more is asked for then): undefined, as at the end.
      const batch = await ahead.shift();
      // Keep the workers busy: one more asked for each one handed over, none past the last.
      if (batch) ahead.push(ask());
      return batch;
    },
    async close() {
      failure ??= new Error('closed');
      await Promise.all(pool.map((w) => w.terminate()));
    },
  };
}
