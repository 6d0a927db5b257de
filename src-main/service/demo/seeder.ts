import { randomBytes } from 'node:crypto';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Doc } from '../objects/validate.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { Rng, ZipfPicker } from './random.js';
import { FIRST_NAMES, LAST_NAMES, LOCALES, STUDIES, STUDY_GROUPS } from './names.js';
import type { SeedPhase } from '../../../src-shared/contracts/demo-data.js';

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
/** Above this many accounts, non-unique indexes are dropped during the load and rebuilt after. */
const BULK_THRESHOLD = 20_000;
const SPAN_MS = 5 * 365 * 24 * 3600 * 1000;

const firstNames = new ZipfPicker(FIRST_NAMES, 0.9);
const lastNames = new ZipfPicker(LAST_NAMES, 1.0);
const extraRoles = [BUILTIN_ROLES.provider, BUILTIN_ROLES.support, BUILTIN_ROLES.developer];

/**
 * Fills an org with realistic, deterministic demo data: accounts (skewed names, emails, mobiles,
 * locales, roles, created spread over five years), conversations, and patient files with
 * connections. Ids are made from each record's `created` time so `_id` order is creation order.
 * Yields to the event loop between batches, so a service running in the same process stays live.
 */
export async function seedOrg(svc: Service, org: Org, opts: SeedOptions): Promise<SeedResult> {
  const rng = new Rng(opts.seed ?? 1);
  const total = opts.accounts;
  const defs = {
    account: svc.defs.byName(org.id, 'account')!,
    conversation: svc.defs.byName(org.id, 'c_conversation')!,
    patientfile: svc.defs.byName(org.id, 'c_patientfile')!,
    connection: svc.defs.byName(org.id, 'connection')!,
  };
  const bulk = total >= BULK_THRESHOLD;
  const offset = svc.store.count(org.id, defs.account);
  const end = svc.clock.now() - 60_000;
  const ids = new IdSequence();
  const result: SeedResult = { accounts: 0, conversations: 0, patientfiles: 0, connections: 0, cancelled: false };
  if (bulk) Object.values(defs).forEach((d) => svc.store.beginBulkLoad(org.id, d));
  try {
    const accountIds: string[] = [];
    const batchSize = opts.batchSize ?? BATCH;
    for (let start = 0; start < total; start += batchSize) {
      if (opts.shouldCancel?.()) {
        result.cancelled = true;
        break;
      }
      const count = Math.min(batchSize, total - start);
      const batch = {
        account: [] as Rec[],
        conversation: [] as Rec[],
        patientfile: [] as Rec[],
        connection: [] as Rec[],
      };
      for (let i = start; i < start + count; i++) {
        const ms = end - SPAN_MS + Math.floor((i * SPAN_MS) / total);
        const account = makeAccount(rng, ids.next(ms), ms, offset + i, end);
        batch.account.push(account);
        if (accountIds.length < 1000) accountIds.push(account._id);
        if (i % 10 === 0) batch.conversation.push(makeConversation(rng, ids.next(ms + 1), ms + 1, account._id));
        if (i % 20 === 0) {
          const file = makePatientfile(rng, ids.next(ms + 2), ms + 2, offset + i);
          batch.patientfile.push(file);
          for (let c = 0; c < 1 + rng.int(3); c++) {
            batch.connection.push(makeConnection(rng, ids.next(ms + 3), ms + 3, file._id, account._id, c));
          }
        }
      }
      svc.db.transaction(() => {
        svc.store.insertMany(org.id, defs.account, batch.account);
        svc.store.insertMany(org.id, defs.conversation, batch.conversation);
        svc.store.insertMany(org.id, defs.patientfile, batch.patientfile);
        svc.store.insertMany(org.id, defs.connection, batch.connection);
      })();
      result.accounts += batch.account.length;
      result.conversations += batch.conversation.length;
      result.patientfiles += batch.patientfile.length;
      result.connections += batch.connection.length;
      opts.onProgress?.(result.accounts, total);
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    opts.onPhase?.('indexing');
    if (bulk) Object.values(defs).forEach((d: ObjectDef) => svc.store.endBulkLoad(org.id, d));
    svc.db.pragma('optimize');
  }
  return result;
}

type Rec = { _id: string; doc: Doc };

/** Ids from a record's creation time: 12 hex of ms + 12 hex of a counter that only grows. */
class IdSequence {
  private counter = BigInt('0x' + randomBytes(5).toString('hex'));
  next(ms: number): string {
    this.counter++;
    return ms.toString(16).padStart(12, '0') + this.counter.toString(16).padStart(12, '0');
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const asciiLower = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase();

/** `latest`: no time of the record lies after it (the seed's end, a minute before now). */
function makeAccount(rng: Rng, _id: string, ms: number, n: number, latest: number): Rec {
  const first = firstNames.pick(rng);
  const last = lastNames.pick(rng);
  const roles = rng.chance(0.05) ? [rng.pick(extraRoles)] : [];
  const groups = STUDY_GROUPS.filter(() => rng.chance(0.15));
  const doc: Doc = {
    email: `${asciiLower(first)}.${asciiLower(last)}.${n}@demo.example`,
    mobile: `+1${String(2000000000 + rng.int(7999999999)).slice(0, 10)}`,
    name: { first, last },
    gender: rng.pick(['f', 'm', 'x', 'u']),
    locale: rng.pick(LOCALES),
    favorite: rng.chance(0.1),
    locked: rng.chance(0.01),
    shared: rng.chance(0.3),
    state: rng.chance(0.85) ? 'verified' : 'unverified',
    roles,
    c_study_groups: groups,
    c_enrollments: groups.length ? [{ c_study: rng.pick(STUDIES), c_enrolled: iso(ms + rng.int(30 * 86400_000)) }] : [],
    created: iso(ms),
    // Edited up to a day after creation, but never in the future (the newest accounts are recent).
    updated: iso(Math.min(ms + rng.int(86400_000), latest)),
  };
  return { _id, doc };
}

function makeConversation(rng: Rng, _id: string, ms: number, accountId: string): Rec {
  return {
    _id,
    doc: {
      c_title: `${rng.pick(['Follow-up', 'Question', 'Results', 'Scheduling', 'Refill'])} #${rng.int(10000)}`,
      c_status: rng.chance(0.7) ? 'closed' : 'open',
      c_participants: [accountId],
      created: iso(ms),
      updated: iso(ms),
    },
  };
}

function makePatientfile(rng: Rng, _id: string, ms: number, n: number): Rec {
  const birth = Date.UTC(1940 + rng.int(65), rng.int(12), 1 + rng.int(28));
  return {
    _id,
    doc: {
      c_name: `${firstNames.pick(rng)} ${lastNames.pick(rng)}`,
      c_mrn: `MRN-${String(n).padStart(8, '0')}`,
      c_birth_date: iso(birth),
      created: iso(ms),
      updated: iso(ms),
    },
  };
}

function makeConnection(rng: Rng, _id: string, ms: number, fileId: string, accountId: string, c: number): Rec {
  return {
    _id,
    doc: {
      context: { _id: fileId, object: 'c_patientfile', path: `/c_patientfiles/${fileId}` },
      target: { _id: accountId, object: 'account', path: `/accounts/${accountId}` },
      access: c === 0 ? 6 : rng.pick([3, 4, 5]),
      state: rng.chance(0.9) ? 'active' : 'pending',
      created: iso(ms),
      updated: iso(ms),
    },
  };
}
