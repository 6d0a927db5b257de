import type { Db } from '../../db/open.js';
import { fault, FaultError } from '../../../../src-shared/faults.js';
import { journalHeldElsewhere, ReplayJournal, type ReplayJournalOptions } from './replay-journal.js';

/**
 * How many nonces one app may have remembered at once. When an app's share is full, its new signed
 * requests are refused rather than an old nonce forgotten (forgetting would reopen the replay window
 * for it); other apps are not affected, since each has its own share.
 *
 * Sized for a busy app: a nonce lives up to twice the ±15-minute timestamp window, so a million
 * lets one app sustain about 550 signed requests a second, at a worst case of roughly 100 MB of
 * memory per app (only an app's own verified requests can fill its share).
 */
export const MAX_REPLAY_NONCES_PER_APP = 1_000_000;

export type ReplayVerdict = 'fresh' | 'replayed';

/** How often, at most, the hot path forgets expired entries (service-clock ms); see `remember`. */
export const REPLAY_PRUNE_INTERVAL_MS = 1000;

/** How often, at most, the hot path deletes expired rows from the journal (a write). */
const JOURNAL_PRUNE_INTERVAL_MS = 60_000;

/** How long a service waits for the journal when it starts (one shutting down lets go in moments). */
export const JOURNAL_CLAIM_WAIT_MS = 2000;

/** After failing to take the journal, how long signed requests are refused before trying again. */
const JOURNAL_RETRY_MS = 1000;

/** Nonces expiring within one second share a bucket, so pruning visits only what has ended. */
const BUCKET_MS = 1000;

interface Bucket {
  appIds: number[];
  nonces: string[];
}

/**
 * Remembers the nonce of every accepted signed request, per app, until the request could no longer
 * pass the timestamp check (decisions §4). Only nonces: a version-1 signature covers just path,
 * method and millisecond, so two different legitimate requests can share one.
 *
 * The verdict is decided in memory, which is exact within one process (requests are handled one
 * at a time on its thread, so of two identical requests exactly one is 'fresh'); every accepted
 * nonce is appended to the journal (replay-journal.ts) before the answer, and the journal is read
 * back on opening, so a restart, or a crash right after answering, does not reopen the window. The
 * journal's exclusive lock keeps a second process on the same data dir from deciding replays.
 *
 * The journal is opened on first use (a host claims it when it starts, `claim`), so a process that
 * never verifies a signature (the admin CLI beside a running service) never touches it.
 */
export class ReplayStore {
  private readonly byApp = new Map<number, Map<string, number>>();
  /** Expiry second → the entries expiring in it. */
  private readonly buckets = new Map<number, Bucket>();
  private lastPrune = Number.NEGATIVE_INFINITY;
  private lastJournalPrune = Number.NEGATIVE_INFINITY;
  private journalHandle: ReplayJournal | undefined;
  /** The journal commit of the last nonce remembered (`durable`). */
  private pendingWrite: Promise<void> = Promise.resolve();
  /** Service-clock ms before which the journal is not tried again (another process holds it). */
  private retryAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly journalOptions: ReplayJournalOptions,
    private readonly maxPerApp: number = MAX_REPLAY_NONCES_PER_APP,
    /** The main database, read once for nonces an earlier version kept there (`replay_entries`). */
    private readonly legacyDb?: Db,
  ) {}

  /**
   * Records a request's nonce, live until `expires` (inclusive, Unix ms). Throws `throttled.policy`
   * when this app's share is full. An entry that has expired counts for nothing, pruned or not:
   * neither a false replay nor a false 'full' can come from it.
   */
  remember(appId: number, nonce: string, now: number, expires: number): ReplayVerdict {
    const journal = this.journal(now);
    if (now - this.lastPrune >= REPLAY_PRUNE_INTERVAL_MS) this.prune(now);
    const key = nonce.toLowerCase(); // nonces are case-insensitive (the pattern is)
    let nonces = this.byApp.get(appId);
    const known = nonces?.get(key);
    if (known !== undefined && known >= now) return 'replayed';
    if (known === undefined && (nonces?.size ?? 0) >= this.maxPerApp) {
      this.prune(now);
      if ((nonces?.size ?? 0) >= this.maxPerApp) {
        throw fault('throttled', 'policy', {
          reason:
            'This application has too many signed requests in the replay window; the service refuses its new ones until older ones expire.',
        });
      }
    }
    if (nonces === undefined) this.byApp.set(appId, (nonces = new Map()));
    this.track(appId, key, expires, nonces);
    this.pendingWrite = journal.appendSoon(appId, key, expires);
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

  /** Forgets entries whose window has passed; returns how many. */
  prune(now: number): number {
    this.lastPrune = now;
    let removed = 0;
    for (const [second, bucket] of this.buckets) {
      if (second * BUCKET_MS >= now) continue; // nothing in it has expired yet
      const keep: Bucket = { appIds: [], nonces: [] };
      for (let i = 0; i < bucket.nonces.length; i++) {
        const appId = bucket.appIds[i]!;
        const nonce = bucket.nonces[i]!;
        const nonces = this.byApp.get(appId);
        const expires = nonces?.get(nonce);
        // Another bucket holds the entry when it was taken over with a later expiry.
        if (expires === undefined || Math.floor(expires / BUCKET_MS) !== second) continue;
        if (expires < now) {
          nonces!.delete(nonce);
          removed++;
        } else {
          keep.appIds.push(appId);
          keep.nonces.push(nonce);
        }
      }
      if (keep.nonces.length === 0) this.buckets.delete(second);
      else this.buckets.set(second, keep);
    }
    if (this.journalHandle && now - this.lastJournalPrune >= JOURNAL_PRUNE_INTERVAL_MS) this.pruneJournal(now);
    return removed;
  }

  /** Forgets every entry of an app (the app was deleted). */
  forgetApp(appId: number): void {
    this.byApp.delete(appId);
    this.journalHandle?.forgetApp(appId);
  }

  /** Nonces an app has remembered (expired ones included until pruned). */
  countedNonces(appId: number): number {
    return this.byApp.get(appId)?.size ?? 0;
  }

  /** Nonces remembered, all apps (after pruning, all of them are live). */
  liveRows(): number {
    let n = 0;
    for (const nonces of this.byApp.values()) n += nonces.size;
    return n;
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
    this.byApp.clear();
    this.buckets.clear();
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
    for (const entry of journal.live(now)) {
      let nonces = this.byApp.get(entry.appId);
      if (nonces === undefined) this.byApp.set(entry.appId, (nonces = new Map()));
      this.track(entry.appId, entry.nonce, entry.expires, nonces);
    }
    this.journalHandle = journal;
    return journal;
  }

  private track(appId: number, nonce: string, expires: number, nonces: Map<string, number>): void {
    nonces.set(nonce, expires);
    const second = Math.floor(expires / BUCKET_MS);
    let bucket = this.buckets.get(second);
    if (bucket === undefined) this.buckets.set(second, (bucket = { appIds: [], nonces: [] }));
    bucket.appIds.push(appId);
    bucket.nonces.push(nonce);
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
    for (const row of rows) journal.append(row.appId, row.value.slice(row.value.indexOf(':') + 1), row.expires);
    if (rows.length > 0 || db.prepare('SELECT 1 FROM replay_entries LIMIT 1').get() !== undefined) {
      db.prepare('DELETE FROM replay_entries').run();
    }
  }
}
