/**
 * Entry of the background checkpointer's worker thread (bundled as dist/main/checkpoint-worker.js;
 * see background-checkpoints.ts for why it exists). Opens its own connection to the database and
 * copies the WAL into it every `intervalMs`, so the copy and its fsyncs run beside the writer
 * instead of inside its commits. On `stop` it makes one last pass, truncates the WAL when no
 * one is using it, and answers with what it did.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointWorkerData, CheckpointerReport } from './background-checkpoints.js';

const port = parentPort;
if (!port) throw new Error('checkpoint-worker.ts runs only as a worker thread');
const data = workerData as CheckpointWorkerData;
const db = new Database(data.file, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
// The same durability as the writer's connection: checkpoints fsync the WAL, then the database.
db.pragma(`synchronous = ${Math.trunc(data.synchronous)}`);
db.pragma('busy_timeout = 0');

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}
const report: CheckpointerReport = { passes: 0, framesCopied: 0 };
let timer: NodeJS.Timeout | undefined;
/** Frames of the current WAL copied so far: the count starts again when a writer restarts the WAL. */
let copiedOfThisWal = 0;

function pass(mode: 'PASSIVE' | 'TRUNCATE'): void {
  const [row] = db.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[];
  report.passes++;
  if (!row || row.checkpointed < 0) return;
  report.framesCopied += row.checkpointed >= copiedOfThisWal ? row.checkpointed - copiedOfThisWal : row.checkpointed;
  copiedOfThisWal = row.checkpointed;
}

function loop(): void {
  pass('PASSIVE');
  timer = setTimeout(loop, data.intervalMs);
}

port.on('message', () => {
  if (timer) clearTimeout(timer);
  pass('PASSIVE');
  // TRUNCATE gives the disk back (a bulk load's WAL grows to the size of what it wrote) when no
  // reader or writer is busy; with busy_timeout 0 it never waits for them. Best effort: when it
  // cannot, the WAL is reused from its start by the next writer once copied.
  try {
    pass('TRUNCATE');
  } catch {
    // A busy database: the passive pass above has copied what it could.
  }
  db.close();
  port.postMessage(report);
  port.close();
});
loop();
