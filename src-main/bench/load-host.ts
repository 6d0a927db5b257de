/**
 * The host side of `npm run bench:load`: a process that runs the service in a worker thread, as the
 * Electron shell does (dist/main/service-worker.js), and measures its OWN main thread's event-loop
 * delay while the load runs. A responsive host is the point of the worker: the window's main
 * process must never wait on a query.
 *
 * Talks to the load process over the fork IPC channel:
 *   → {type:'ready', port}                       once the worker listens
 *   ← 'start'  → {type:'started', memory}        resets the delay histogram, reports memory
 *   ← 'stop'   → {type:'stopped', memory, delay} delay in ms (min/mean/p50/p99/max)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

export interface HostMemory {
  rssMb: number;
  /** The host's own (main-thread) heap. */
  heapUsedMb: number;
  /** The service worker's heap after a full collection. */
  workerHeapMb: number;
}
export interface LoopDelay {
  minMs: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}
export type HostMessage =
  | { type: 'ready'; port: number }
  | { type: 'started'; memory: HostMemory }
  | { type: 'stopped'; memory: HostMemory; delay: LoopDelay }
  | { type: 'error'; message: string };

/** Sampling interval of the event-loop delay histogram. */
export const LOOP_RESOLUTION_MS = 5;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Both heaps after full collections (the host runs with --expose-gc, which its worker inherits). */
async function memory(worker: Worker): Promise<HostMemory> {
  const workerHeap = new Promise<number>((resolve) => {
    const onMessage = (m: { type?: string; heapUsedBytes?: number }) => {
      if (m.type !== 'memory') return;
      worker.off('message', onMessage);
      resolve(m.heapUsedBytes ?? 0);
    };
    worker.on('message', onMessage);
  });
  worker.postMessage({ type: 'memory' });
  const workerHeapBytes = await workerHeap;
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), workerHeapMb: mb(workerHeapBytes) };
}

export function runHost(dataDir: string, distMain: string): void {
  const send = (m: HostMessage) => process.send?.(m);
  const masterKey = Buffer.from(readFileSync(join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const worker = new Worker(join(distMain, 'service-worker.js'), {
    workerData: { dataDir, port: 0, masterKey, consoleDir: join(distMain, '..', 'renderer') },
  });
  worker.once('error', (err) => send({ type: 'error', message: err.message }));
  worker.once('message', (m: { type: string; port?: number; message?: string }) =>
    send(m.type === 'ready' ? { type: 'ready', port: m.port! } : { type: 'error', message: m.message ?? '?' }),
  );

  const histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  // Samples are whole timer intervals; the delay is what exceeds the interval.
  const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 100) / 100);
  process.on('message', async (command: string) => {
    if (command === 'start') {
      const before = await memory(worker); // its forced GC pauses this thread: taken before the histogram starts
      histogram.reset();
      histogram.enable();
      send({ type: 'started', memory: before });
    } else if (command === 'stop') {
      histogram.disable();
      send({
        type: 'stopped',
        memory: await memory(worker),
        delay: {
          minMs: ms(histogram.min),
          meanMs: ms(histogram.mean),
          p50Ms: ms(histogram.percentile(50)),
          p99Ms: ms(histogram.percentile(99)),
          maxMs: ms(histogram.max),
        },
      });
    } else if (command === 'exit') {
      void worker.terminate().then(() => process.exit(0));
    }
  });
}
