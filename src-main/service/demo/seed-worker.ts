/**
 * Entry of the demo seeder's worker thread (bundled as dist/main/seed-worker.js): generates the
 * plan's batches (generate.ts) on the second core while the seeder's thread writes the previous
 * one. Answers each `next` message with the next batch, or null after the last.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DemoGenerator, type GenerationPlan } from './generate.js';

const port = parentPort;
if (!port) throw new Error('seed-worker.ts runs only as a worker thread');
const generator = new DemoGenerator(workerData as GenerationPlan);
port.on('message', () => port.postMessage(generator.next() ?? null));
