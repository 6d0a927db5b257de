import { randomBytes } from 'node:crypto';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { SeedPhase } from '../../../src-shared/contracts/demo-data.js';
import type { GeneratedAccount, GeneratedBatch, GenerationPlan } from './generate.js';
import { threadBatches, workerBatches, type BatchSource } from './batch-source.js';
import { derivedFields } from '../objects/stored-record.js';
import { startBackgroundCheckpoints } from '../db/background-checkpoints.js';
import { refreshStatistics } from '../db/statistics.js';

export interface SeedOptions {
  accounts: number;
  seed?: number;
  /** Called after each batch with records written so far and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Checked between batches; true stops the seeding (what is written stays). */
  shouldCancel?: () => boolean;
  /** Called when the work changes from writing records to rebuilding indexes. */
  onPhase?: (phase: SeedPhase) => void;
  /**
   * Accounts written per transaction (default BATCH). The admin CLI, which serves no requests
   * while it seeds, passes CLI_BATCH: fewer, larger commits write each page of the random-order
   * unique email index to the WAL once per many inserts instead of once per few.
   */
  batchSize?: number;
  /**
   * Where the records are generated: 'worker' (a worker thread, one batch ahead of the writes, so
   * generation runs on another core) or 'thread' (this one). Default: a worker for bulk loads
   * (BULK_THRESHOLD accounts or more), this thread for smaller ones. Both give the same records.
   */
  generateIn?: 'worker' | 'thread';
  /**
   * Generator workers when generating in workers (default 1). The admin CLI, whose thread only
   * writes, passes CLI_GENERATORS; a running service keeps the default, so a seed started from the
   * console leaves a core to the requests it serves meanwhile.
   */
  generators?: number;
}

export interface SeedResult {
  accounts: number;
  conversations: number;
  patientfiles: number;
  connections: number;
  cancelled: boolean;
}

/**
 * Accounts written per transaction in a running service: big enough to amortise commits, small
 * enough that the requests served between batches wait a few tens of milliseconds at most.
 */
const BATCH = 5000;
/**
 * The admin CLI's batch (`seed`): no requests wait on it. The email index takes inserts in random
 * order, so at a million accounts a batch of 5,000 dirtied about as many index pages as it inserted
 * rows, and every commit wrote them all; the insert phase of a 1M seed fell from 62 s to 34 s.
 */
export const CLI_BATCH = 50_000;
/**
 * The admin CLI's generator workers. Generating a 1M seed's records takes about 25 s of CPU and
 * writing them about 16 s, so with one generator the writer waited for it; two share the
 * generating, and the three threads keep both cores of a small machine busy.
 */
export const CLI_GENERATORS = 2;
/** Above this many accounts, non-unique indexes are dropped during the load and rebuilt after. */
const BULK_THRESHOLD = 20_000;

/**
 * Fills an org with realistic, deterministic demo data: accounts (skewed names, emails, mobiles,
 * locales, roles, created spread over five years), conversations, and patient files with
 * connections. Ids are made from each record's `created` time so `_id` order is creation order.
 * Yields to the event loop between batches, so a service running in the same process stays live.
 */
export async function seedOrg(svc: Service, org: Org, opts: SeedOptions): Promise<SeedResult> {
  const total = opts.accounts;
  const defs = {
    account: svc.defs.byName(org.id, 'account')!,
    conversation: svc.defs.byName(org.id, 'c_conversation')!,
    patientfile: svc.defs.byName(org.id, 'c_patientfile')!,
    connection: svc.defs.byName(org.id, 'connection')!,
  };
  const bulk = total >= BULK_THRESHOLD;
  const plan: GenerationPlan = {
    seed: opts.seed ?? 1,
    total,
    offset: svc.store.count(org.id, defs.account),
    end: svc.clock.now() - 60_000,
    batchSize: opts.batchSize ?? BATCH,
    idCounter: randomBytes(5).toString('hex'),
  };
  const result: SeedResult = { accounts: 0, conversations: 0, patientfiles: 0, connections: 0, cancelled: false };
  const inWorker = (opts.generateIn ?? (bulk ? 'worker' : 'thread')) === 'worker';
  const source: BatchSource = inWorker ? await workerBatches(plan, opts.generators) : threadBatches(plan);
  // A bulk load's commits would each wait for a checkpoint's fsyncs; a worker runs them instead.
  const checkpoints = bulk ? await startBackgroundCheckpoints(svc.db, { nativeBinding: svc.nativeBinding }) : undefined;
  try {
    // Inside the try: whatever happens from here, the indexes are rebuilt and the checkpoints
    // handed back to the connection.
    if (bulk) Object.values(defs).forEach((d) => svc.store.beginBulkLoad(org.id, d));
    for (;;) {
      if (opts.shouldCancel?.()) {
        result.cancelled = true;
        break;
      }
      const batch = await source.next();
      if (!batch) break;
      svc.db.transaction(() => write(svc, org, defs, batch))();
      result.accounts += batch.accounts.length;
      result.conversations += batch.conversations.length;
      result.patientfiles += batch.patientfiles.length;
      result.connections += batch.connections.length;
      opts.onProgress?.(result.accounts, total);
      // Requests of a service running in this thread are answered between batches.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    await source.close();
    opts.onPhase?.('indexing');
    try {
      if (bulk) Object.values(defs).forEach((d: ObjectDef) => svc.store.endBulkLoad(org.id, d));
      // Bounded: a full ANALYZE (what `PRAGMA optimize` ran here before) also samples sqlite_stat4,
      // 0.9 s at 100,000 accounts and growing with the data.
      refreshStatistics(
        svc.db,
        Object.values(defs).map((d) => svc.store.table(org.id, d)),
      );
    } finally {
      await checkpoints?.stop();
    }
  }
  return result;
}

type SeededDefs = Record<'account' | 'conversation' | 'patientfile' | 'connection', ObjectDef>;

/**
 * Writes one batch (inside the caller's transaction). Accounts get the fields the store derives
 * (`inherited_roles`), worked out once per distinct set of roles in the batch, from the org's roles
 * as they are now, so a role changed while a long seed runs applies from the next batch on.
 */
function write(svc: Service, org: Org, defs: SeededDefs, batch: GeneratedBatch): void {
  const derived = new Map<string, string>();
  const withDerived = (a: GeneratedAccount) => {
    const key = a.roles.join(',');
    let suffix = derived.get(key);
    if (suffix === undefined) {
      suffix = derivedFields(svc.store.derivations, org.id, defs.account, { roles: a.roles });
      derived.set(key, suffix);
    }
    return { _id: a._id, text: a.text.slice(0, -1) + suffix + '}' };
  };
  svc.store.insertTexts(org.id, defs.account, batch.accounts.map(withDerived));
  svc.store.insertTexts(org.id, defs.conversation, batch.conversations);
  svc.store.insertTexts(org.id, defs.patientfile, batch.patientfiles);
  svc.store.insertTexts(org.id, defs.connection, batch.connections);
}
