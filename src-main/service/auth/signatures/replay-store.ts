import type { Db } from '../../db/open.js';
import { FaultError } from '../../../../src-shared/faults.js';
import { journalHeldElsewhere, ReplayJournal, type ReplayJournalOptions } from './replay-journal.js';
import {
  MAX_REPLAY_NONCES,
  MAX_REPLAY_NONCES_PER_APP,
  MAX_REPLAY_NONCES_PER_ORG,
  ReplayShares,
  type ReplayLimits,
} from './replay-shares.js';
import { NONCE_PATTERN } from './signature.js';

export {
  MAX_REPLAY_NONCES,
  MAX_REPLAY_NONCES_PER_APP,
  MAX_REPLAY_NONCES_PER_ORG,
  type ReplayLimits,
} from './replay-shares.js';

export interface ReplayStoreOptions {
  /** The bounds (replay-shares.ts); tests make them small enough to fill. */
  limits?: Partial<ReplayLimits>;
  /** The main database, read once for nonces an earlier version kept there (`replay_entries`). */
  legacyDb?: Db;
  /** The org an app belongs to (its nonces count toward that org's share); undefined: none. */
  orgOfApp?: (appId: number) => number | undefined;
}

export type ReplayVerdict = 'fresh' | 'replayed';

/** How often, at most, the hot path deletes expired rows from the journal (a write). */
const JOURNAL_PRUNE_INTERVAL_MS = 60_000;

/** How long a service waits for the journal when it starts (one shutting down lets go in moments). */
export const JOURNAL_CLAIM_WAIT_MS = 2000;

/** After failing to take the journal, how long signed requests are refused before trying again. */
const JOURNAL_RETRY_MS = 1000;

/**
 * Remembers the nonce of every accepted signed request, per app, until the request could no longer
 * pass the timestamp check (docs/signing.md). Only nonces: a version-1 signature covers just path,
 * method and millisecond, so two different legitimate requests can share one.
 *
 * The verdict is decided in memory, which is exact within one process (requests are handled one
 * at a time on its thread, so of two identical requests exactly one is 'fresh'); every accepted
 * nonce is appended to the journal (replay-journal.ts) before the answer, and the journal is read
 * back on opening, so a restart, or a crash right after answering, does not reopen the window. The
 * journal's exclusive lock keeps a second process on the same data dir from deciding replays.
 *
 * Memory is bounded per app, per org and in all (replay-shares.ts), and never by forgetting: a
 * nonce is remembered for its whole window or its request is refused (`throttled.policy`), so a
 * full store costs availability, never the guarantee that a replay is refused. The org bound is
 * what keeps one org's administrator, who makes as many apps as they like, from filling the
 * service's bound for every other org.
 *
 * The journal is opened on first use (a host claims it when it starts, `claim`), so a process that
 * never verifies a signature (the admin CLI beside a running service) never touches it.
 */
export class ReplayStore {
  /** Each app's nonces, bounded per app, per org and in all (replay-shares.ts). */
  private readonly shares: ReplayShares;
  private readonly legacyDb: Db | undefined;
  private lastJournalPrune = Number.NEGATIVE_INFINITY;
  private journalHandle: ReplayJournal | undefined;
  /** The journal commit of the last nonce remembered (`durable`). */
  private pendingWrite: Promise<void> = Promise.resolve();
  /** Service-clock ms before which the journal is not tried again (another process holds it). */
  private retryAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly journalOptions: ReplayJournalOptions,
    opts: ReplayStoreOptions = {},
  ) {
    const limits: ReplayLimits = {
      perApp: opts.limits?.perApp ?? MAX_REPLAY_NONCES_PER_APP,
      perOrg: opts.limits?.perOrg ?? MAX_REPLAY_NONCES_PER_ORG,
      total: opts.limits?.total ?? MAX_REPLAY_NONCES,
    };
    this.shares = new ReplayShares(limits, opts.orgOfApp ?? (() => undefined));
    this.legacyDb = opts.legacyDb;
  }

  /**
   * Records a request's nonce, live until `expires` (inclusive, Unix ms). Throws `throttled.policy`
   * when this app's, its org's or the service's share is full. An entry that has expired counts
   * for nothing, pruned or not: it is never taken for a replay, and a share that looks full is
   * decided again after dropping such entries (replay-shares.ts).
   */
  remember(appId: number, nonce: string, now: number, expires: number): ReplayVerdict {
    const journal = this.journal(now);
    if (now - this.lastJournalPrune >= JOURNAL_PRUNE_INTERVAL_MS) this.pruneJournal(now);
    const known = this.shares.get(appId, nonce); // the table folds letter case, as the pattern does
    if (known !== undefined && known >= now) return 'replayed';
    this.shares.set(appId, nonce, expires, now, known === undefined);
    this.pendingWrite = journal.appendSoon(appId, nonce.toLowerCase(), expires);
    return 'fresh';
  }

  /**
   * Settles once every nonce remembered so far is in the journal: a request is answered only after
   * that (so a crash right after answering cannot reopen its window). Rejected when the write
   * failed; the request then fails, and its nonce stays spent.
   */
  durable(): Promise<void> {
    return this.pendingWrite;
  }

  /**
   * Forgets entries whose window has passed; returns how many. Between prunes, expired entries
   * count for nothing (see `remember`), and each app's table drops them whenever it would grow.
   */
  prune(now: number): number {
    const removed = this.shares.prune(now);
    if (this.journalHandle && now - this.lastJournalPrune >= JOURNAL_PRUNE_INTERVAL_MS) this.pruneJournal(now);
    return removed;
  }

  /** Forgets every entry of an app (the app was deleted). */
  forgetApp(appId: number): void {
    this.shares.forgetApp(appId);
    this.journalHandle?.forgetApp(appId);
  }

  /** Nonces an app has remembered (expired ones included until pruned). */
  countedNonces(appId: number): number {
    return this.shares.countedNonces(appId);
  }

  /** Nonces remembered, all apps (after pruning, all of them are live). */
  liveRows(): number {
    return this.shares.size();
  }

  /** Rows in the journal (tests and diagnostics). */
  journalRows(): number {
    return this.journalHandle?.rows() ?? 0;
  }

  /**
   * Takes the journal now rather than on the first signed request, waiting a little for a process
   * that is shutting down. False when another service holds it: this one then refuses signed
   * requests (and tries again at most once a second, taking over once the other has stopped).
   */
  claim(now: number): boolean {
    try {
      this.journal(now, JOURNAL_CLAIM_WAIT_MS);
      return true;
    } catch (err) {
      if (err instanceof FaultError && err.fault.errCode === 'service.error.replayJournal') return false;
      throw err;
    }
  }

  close(): void {
    this.journalHandle?.close(); // commits what is still queued
    this.journalHandle = undefined;
    this.shares.clear();
  }

  private journal(now: number, waitMs = 0): ReplayJournal {
    if (this.journalHandle) return this.journalHandle;
    if (now < this.retryAt) throw journalHeldElsewhere();
    let journal: ReplayJournal;
    try {
      journal = ReplayJournal.open(this.journalOptions, waitMs);
    } catch (err) {
      if (err instanceof FaultError) this.retryAt = now + JOURNAL_RETRY_MS;
      throw err;
    }
    this.importLegacy(journal, now);
    // Read back whatever the bounds: each was accepted within them, and forgetting one would
    // reopen its window. They count toward the shares from now on.
    journal.forEachLive(now, (appId, nonce, expires) => this.shares.set(appId, nonce, expires, now, false));
    this.journalHandle = journal;
    return journal;
  }

  private pruneJournal(now: number): void {
    this.lastJournalPrune = now;
    this.journalHandle?.prune(now);
  }

  /**
   * Moves the live nonces an earlier version kept in the main database (`replay_entries`, keyed
   * `<appId>:<nonce>`) into the journal, once, so an upgrade does not reopen their window.
   */
  private importLegacy(journal: ReplayJournal, now: number): void {
    const db = this.legacyDb;
    if (db === undefined) return;
    const rows = db
      .prepare("SELECT value, app_id AS appId, expires FROM replay_entries WHERE kind = 'nonce' AND expires >= ?")
      .all(now) as { value: string; appId: number; expires: number }[];
    for (const row of rows) {
      const nonce = row.value.slice(row.value.indexOf(':') + 1);
      if (NONCE_PATTERN.test(nonce)) journal.append(row.appId, nonce.toLowerCase(), row.expires);
    }
    if (rows.length > 0 || db.prepare('SELECT 1 FROM replay_entries LIMIT 1').get() !== undefined) {
      db.prepare('DELETE FROM replay_entries').run();
    }
  }
}
