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
 * Generates in a worker thread, one batch ahead: while the caller writes batch k, the worker
 * builds batch k+1, so generating and serialising the records (about half of a bulk seed's
 * writing phase) runs on the second core. At most two batches are in flight.
 */
export async function workerBatches(plan: GenerationPlan): Promise<BatchSource> {
  const worker = new Worker(await resolveWorkerUrl('seed-worker'), { workerData: plan });
  const waiting: { resolve(b: GeneratedBatch | undefined): void; reject(e: Error): void }[] = [];
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure ??= e;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  worker.on('message', (batch: GeneratedBatch | null) => waiting.shift()?.resolve(batch ?? undefined));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the demo data worker stopped (exit code ${code})`)));
  const ask = () =>
    new Promise<GeneratedBatch | undefined>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting.push({ resolve, reject });
      worker.postMessage('next');
    });
  let ahead = ask();
  return {
    next() {
      const current = ahead;
      // Ask for the following batch now, so the worker builds it while this one is written.
      ahead = current.then((batch) => (batch ? ask() : undefined));
      // A rejection of the batch asked ahead surfaces when it is awaited, not as unhandled.
      ahead.catch(() => undefined);
      return current;
    },
    async close() {
      failure ??= new Error('closed');
      await worker.terminate();
    },
  };
}
