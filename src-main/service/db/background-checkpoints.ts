import { Worker } from 'node:worker_threads';
import { resolveWorkerUrl } from '../workers/bundled-worker.js';
import type { Db } from './open.js';

/** What the checkpoint worker is started with. */
export interface CheckpointWorkerData {
  file: string;
  nativeBinding?: string;
  /** The writer's `synchronous` level (0–3), so the checkpoints fsync as its own would. */
  synchronous: number;
  intervalMs: number;
}

/** What the worker did, reported when it stops. */
export interface CheckpointerReport {
  /** Checkpoint passes run. */
  passes: number;
  /** WAL frames copied into the database. */
  framesCopied: number;
}

export interface BackgroundCheckpoints {
  /** Stops the worker (after one last pass) and gives the connection its own checkpoints back. */
  stop(): Promise<CheckpointerReport>;
}

/**
 * Between passes. Each pass fsyncs the WAL and the database; 1M-account seeds took 59.7 and 60.8 s
 * at 500 ms against 62.8 and 61.1 s at 50 ms, taking turns (within this machine's noise).
 */
const INTERVAL_MS = 500;
const NONE: CheckpointerReport = { passes: 0, framesCopied: 0 };
/** For a connection that keeps checkpointing for itself. */
const OWN_CHECKPOINTS: BackgroundCheckpoints = { stop: () => Promise.resolve(NONE) };

/**
 * Moves a bulk write's WAL checkpoints off the writing thread, for as long as the bulk write lasts.
 *
 * In WAL mode a commit that takes the log past `wal_autocheckpoint` pages copies the log into the
 * database there and then, with an fsync of each (`synchronous = NORMAL` or `FULL`), so a seeding's
 * writer spent about a third of its writing phase waiting for the disk. Here a worker thread with
 * its own connection runs the checkpoints (PASSIVE: it never blocks the writer) while the writer
 * keeps going, and the durability is unchanged: the same checkpoints, the same fsyncs, on another
 * thread. Writing a million demo accounts took 15.4–16.1 s this way against 20.3–21.7 s.
 *
 * The WAL grows while the writer outruns the copying (it restarts only once fully copied), so the
 * worker truncates it when it stops. A database without a file (':memory:') or not in WAL mode
 * keeps its own checkpoints, and so does one whose worker cannot start.
 */
export async function startBackgroundCheckpoints(
  db: Db,
  opts: { nativeBinding?: string | undefined } = {},
): Promise<BackgroundCheckpoints> {
  const journalMode = db.pragma('journal_mode', { simple: true }) as string;
  if (db.memory || journalMode !== 'wal') return OWN_CHECKPOINTS;
  const data: CheckpointWorkerData = {
    file: db.name,
    synchronous: db.pragma('synchronous', { simple: true }) as number,
    intervalMs: INTERVAL_MS,
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
  };
  let worker: Worker;
  try {
    worker = new Worker(await resolveWorkerUrl('checkpoint-worker'), { workerData: data });
  } catch {
    return OWN_CHECKPOINTS;
  }
  const autocheckpoint = Math.trunc(db.pragma('wal_autocheckpoint', { simple: true }) as number);
  const handBack = () => db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  db.pragma('wal_autocheckpoint = 0');
  let failure: Error | undefined;
  worker.once('error', (e) => {
    failure = e;
    handBack(); // without the worker, the connection checkpoints for itself again at once
  });
  const reported = new Promise<CheckpointerReport>((resolve) => {
    worker.once('message', (r: CheckpointerReport) => resolve(r));
    worker.once('exit', () => resolve(NONE));
  });
  return {
    async stop() {
      if (!failure) worker.postMessage('stop');
      const report = await reported;
      await worker.terminate();
      handBack();
      return report;
    },
  };
}
