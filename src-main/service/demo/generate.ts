/**
 * The demo records themselves, batch after batch, as JSON text: pure computation (no database, no
 * service), so it runs in the seeder's worker thread (seed-worker.ts) as well as in the caller's
 * thread, and both give the same records for the same plan.
 */
import type { Doc } from '../objects/validate.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { Rng, ZipfPicker } from './random.js';
import { FIRST_NAMES, LAST_NAMES, LOCALES, STUDIES, STUDY_GROUPS } from './names.js';

/** Everything that decides the records: the same plan always gives the same batches. */
export interface GenerationPlan {
  /** The PRNG's seed. */
  seed: number;
  /** Accounts to generate. */
  total: number;
  /** Accounts already in the org: numbers the new ones' emails after them. */
  offset: number;
  /** No record is dated after this (Unix ms). */
  end: number;
  /** Accounts per batch. */
  batchSize: number;
  /** Hex start of the id counter (the per-run part of every id). */
  idCounter: string;
}

/** A record as stored: its id and its document's JSON text. */
export interface GeneratedRecord {
  _id: string;
  text: string;
}

/**
 * An account, without the fields the store derives (its `inherited_roles`): the writer derives
 * them from `roles` against the org's current roles and appends them to `text`.
 */
export interface GeneratedAccount extends GeneratedRecord {
  roles: string[];
}

export interface GeneratedBatch {
  accounts: GeneratedAccount[];
  conversations: GeneratedRecord[];
  patientfiles: GeneratedRecord[];
  connections: GeneratedRecord[];
}

const SPAN_MS = 5 * 365 * 24 * 3600 * 1000;
const DAY_MS = 86400_000;

const firstNames = new ZipfPicker(FIRST_NAMES, 0.9);
const lastNames = new ZipfPicker(LAST_NAMES, 1.0);
const extraRoles = [BUILTIN_ROLES.provider, BUILTIN_ROLES.support, BUILTIN_ROLES.developer];

/**
 * Accounts per block. Each block draws from a PRNG stream and an id range of its own, so any batch
 * can be generated alone, in any thread and in any order (the CLI's seed runs two generator
 * workers), and the records do not depend on the batch size.
 */
export const BLOCK_SIZE = 1000;
/** Ids a block may use: an account takes at most 6 (itself, a conversation, a file, 3 connections). */
const IDS_PER_BLOCK = 0x10000;

/** Generates a plan's batches; `batch(k)` is the k-th, `next` the one after the last it gave. */
export class DemoGenerator {
  private following = 0;
  private readonly idBase: number;

  constructor(private readonly plan: GenerationPlan) {
    if (!/^[0-9a-f]{1,10}$/i.test(plan.idCounter))
      throw new Error(`idCounter is not hex (1 to 10 digits): ${plan.idCounter}`);
    this.idBase = parseInt(plan.idCounter, 16);
  }

  next(): GeneratedBatch | undefined {
    return this.batch(this.following++);
  }

  /** Batch k: accounts k·batchSize onwards (with their other records), or undefined past the last. */
  batch(k: number): GeneratedBatch | undefined {
    const { total, batchSize } = this.plan;
    const start = k * batchSize;
    if (start >= total) return undefined;
    const end = Math.min(start + batchSize, total);
    const batch = emptyBatch();
    // A batch that starts inside a block replays the block's earlier accounts to reach its PRNG
    // state, and drops them (only with batch sizes that are not multiples of BLOCK_SIZE).
    const skipped = emptyBatch();
    for (let block = Math.floor(start / BLOCK_SIZE); block * BLOCK_SIZE < end; block++) {
      const rng = new Rng(this.plan.seed, block + 1);
      const ids = new IdSequence(this.idBase + block * IDS_PER_BLOCK);
      for (let i = block * BLOCK_SIZE; i < Math.min((block + 1) * BLOCK_SIZE, end); i++) {
        this.add(i, rng, ids, i >= start ? batch : skipped);
      }
    }
    return batch;
  }

  /** Account i, and the conversation, patient file and connections that come with it. */
  private add(i: number, rng: Rng, ids: IdSequence, batch: GeneratedBatch): void {
    const { total, offset, end } = this.plan;
    // Spread over five years in order, so `_id` order is creation order.
    const ms = end - SPAN_MS + Math.floor((i * SPAN_MS) / total);
    const account = makeAccount(rng, ids.next(ms), ms, offset + i, end);
    batch.accounts.push(account);
    if (i % 10 === 0) batch.conversations.push(makeConversation(rng, ids.next(ms + 1), ms + 1, account._id));
    if (i % 20 === 0) {
      const file = makePatientfile(rng, ids.next(ms + 2), ms + 2, offset + i);
      batch.patientfiles.push(file);
      for (let c = 0; c < 1 + rng.int(3); c++) {
        batch.connections.push(makeConnection(rng, ids.next(ms + 3), ms + 3, file._id, account._id, c));
      }
    }
  }
}

const emptyBatch = (): GeneratedBatch => ({ accounts: [], conversations: [], patientfiles: [], connections: [] });

/** Ids from a record's creation time: 12 hex of ms + 12 hex of a counter (exact in a double). */
class IdSequence {
  constructor(private counter: number) {}
  next(ms: number): string {
    this.counter++;
    return ms.toString(16).padStart(12, '0') + this.counter.toString(16).padStart(12, '0');
  }
}

/**
 * `new Date(ms).toISOString()` for the seeder's times (years 1940 to now). Records come in time
 * order, so only a few dates are in use at once (an account's creation day, the day after for its
 * update, a month ahead for an enrolment): their date parts are kept, and usually only the time of
 * day is formatted. The Date call was the generator's largest single cost (1.2 µs); a one-day memo
 * still missed on about two calls per account, as `updated` and the next `created` took turns.
 */
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  let date = isoDates.get(day);
  if (date === undefined) {
    // A bounded memo: the seeder moves forward through five years of days.
    if (isoDates.size >= ISO_DATES_KEPT) isoDates.clear();
    date = new Date(day).toISOString().slice(0, 11);
    isoDates.set(day, date);
  }
  let rest = ms - day;
  const h = Math.floor(rest / 3600_000);
  rest -= h * 3600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${date}${two(h)}:${two(m)}:${two(s)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
const ISO_DATES_KEPT = 128;
const isoDates = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
/** An email-safe name: NFKD, non-ASCII dropped, lower case; kept per name (they come from lists). */
const asciiLower = (s: string) => {
  let lowered = asciiNames.get(s);
  if (lowered === undefined) {
    lowered = s
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .toLowerCase();
    asciiNames.set(s, lowered);
  }
  return lowered;
};
const asciiNames = new Map<string, string>();
const record = (_id: string, doc: Doc): GeneratedRecord => ({ _id, text: JSON.stringify(doc) });

/** `latest`: no time of the record lies after it (the seed's end, a minute before now). */
function makeAccount(rng: Rng, _id: string, ms: number, n: number, latest: number): GeneratedAccount {
  const first = firstNames.pick(rng);
  const last = lastNames.pick(rng);
  const roles: string[] = rng.chance(0.05) ? [rng.pick(extraRoles)] : [];
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
    c_enrollments: groups.length ? [{ c_study: rng.pick(STUDIES), c_enrolled: iso(ms + rng.int(30 * DAY_MS)) }] : [],
    created: iso(ms),
    // Edited up to a day after creation, but never in the future (the newest accounts are recent).
    updated: iso(Math.min(ms + rng.int(DAY_MS), latest)),
  };
  return { ...record(_id, doc), roles };
}

function makeConversation(rng: Rng, _id: string, ms: number, accountId: string): GeneratedRecord {
  return record(_id, {
    c_title: `${rng.pick(['Follow-up', 'Question', 'Results', 'Scheduling', 'Refill'])} #${rng.int(10000)}`,
    c_status: rng.chance(0.7) ? 'closed' : 'open',
    c_participants: [accountId],
    created: iso(ms),
    updated: iso(ms),
  });
}

function makePatientfile(rng: Rng, _id: string, ms: number, n: number): GeneratedRecord {
  const birth = Date.UTC(1940 + rng.int(65), rng.int(12), 1 + rng.int(28));
  return record(_id, {
    c_name: `${firstNames.pick(rng)} ${lastNames.pick(rng)}`,
    c_mrn: `MRN-${String(n).padStart(8, '0')}`,
    c_birth_date: iso(birth),
    created: iso(ms),
    updated: iso(ms),
  });
}

function makeConnection(
  rng: Rng,
  _id: string,
  ms: number,
  fileId: string,
  accountId: string,
  c: number,
): GeneratedRecord {
  return record(_id, {
    context: { _id: fileId, object: 'c_patientfile', path: `/c_patientfiles/${fileId}` },
    target: { _id: accountId, object: 'account', path: `/accounts/${accountId}` },
    access: c === 0 ? 6 : rng.pick([3, 4, 5]),
    state: rng.chance(0.9) ? 'active' : 'pending',
    created: iso(ms),
    updated: iso(ms),
  });
}
