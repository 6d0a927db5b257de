/**
 * Runs the whole service in a worker thread, so that a slow query never blocks the Electron main
 * process (and with it the window). The shell passes the data dir, the master key it keeps in the
 * OS keychain and the Electron-ABI better-sqlite3 binary; the worker answers with the port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hostService } from './host.js';

export interface ServiceWorkerData {
  dataDir: string;
  port: number;
  masterKey: Uint8Array;
  nativeBinding?: string;
  consoleDir?: string;
  /** The desktop asks for `full`: an acknowledged write must survive a power cut. */
  synchronous?: 'full' | 'normal';
}

export type ServiceWorkerMessage =
  | { type: 'ready'; port: number; org?: string }
  | { type: 'error'; message: string }
  | { type: 'memory'; heapUsedBytes: number };

const data = workerData as ServiceWorkerData;
const post = (m: ServiceWorkerMessage) => parentPort?.postMessage(m);

// `npm run bench:load` asks for this thread's heap after a full collection (gc exists only when the
// host runs with --expose-gc): the leak indicator that process RSS, which allocators rarely give
// back, cannot be.
parentPort?.on('message', (m: { type?: string }) => {
  if (m?.type !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  post({ type: 'memory', heapUsedBytes: process.memoryUsage().heapUsed });
});

hostService({
  dataDir: data.dataDir,
  port: data.port,
  org: 'demo',
  masterKey: Buffer.from(data.masterKey),
  ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
  ...(data.consoleDir ? { consoleDir: data.consoleDir } : {}),
  ...(data.synchronous ? { synchronous: data.synchronous } : {}),
  log: () => undefined,
})
  .then((running) => post({ type: 'ready', port: running.port, ...(running.org ? { org: running.org } : {}) }))
  .catch((err: unknown) => post({ type: 'error', message: (err as Error).message }));
