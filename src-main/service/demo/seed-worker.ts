/**
 * Entry of the demo seeder's generator worker threads (bundled as dist/main/seed-worker.js):
 * generates the batches it is asked for (generate.ts) on another core while the seeder's thread
 * writes earlier ones. Answers each batch number with `{ k, batch }`, `batch` null past the last.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DemoGenerator, type GenerationPlan } from './generate.js';

const port = parentPort;
if (!port) throw new Error('seed-worker.ts runs only as a worker thread');
const generator = new DemoGenerator(workerData as GenerationPlan);
port.on('message', (k: number) => port.postMessage({ k, batch: generator.batch(k) ?? null }));
