import type { Db } from '../../db/open.js';
import { fault, FaultError } from '../../../../src-shared/faults.js';
import { journalHeldElsewhere, ReplayJournal, type ReplayJournalOptions } from './replay-journal.js';
import { NonceTable } from './nonce-table.js';
import { NONCE_PATTERN } from './signature.js';

/**
 * How many nonces one app may have remembered at once. When an app's share is full, its new signed
 * requests are refused rather than an old nonce forgotten (forgetting would reopen the replay window
 * for it); other apps are not affected, since each has its own share.
 *
 * Sized for a busy app: a nonce lives up to twice the ±15-minute timestamp window, so a million
 * lets one app sustain about 550 signed requests a second, at a worst case of about 50 MB of
 * memory per app (a 2M-slot table, nonce-table.ts; 72 MB while it grows into it), and only an
 * app's own verified requests can fill its share.
 */
export const MAX_REPLAY_NONCES_PER_APP = 1_000_000;

export type ReplayVerdict = 'fresh' | 'replayed';

/** How often, at most, the hot path deletes expired rows from the journal (a write). */
const JOURNAL_PRUNE_INTERVAL_MS = 60_000;

/** How long a service waits for the journal when it starts (one shutting down lets go in moments). */
export const JOURNAL_CLAIM_WAIT_MS = 2000;

/** After failing to take the journal, how long signed requests are refused before trying again. */
const JOURNAL_RETRY_MS = 1000;

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
  /** Each app's nonces (nonce-table.ts), so one app's load never slows another's lookups. */
  private readonly byApp = new Map<number, NonceTable>();
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
    if (now - this.lastJournalPrune >= JOURNAL_PRUNE_INTERVAL_MS) this.pruneJournal(now);
    let nonces = this.byApp.get(appId);
    const known = nonces?.get(nonce); // the table folds letter case, as the pattern does
    if (known !== undefined && known >= now) return 'replayed';
    if (known === undefined && nonces !== undefined && nonces.size >= this.maxPerApp) {
      nonces.prune(now);
      if (nonces.size >= this.maxPerApp) {
        throw fault('throttled', 'policy', {
          reason:
            'This application has too many signed requests in the replay window; the service refuses its new ones until older ones expire.',
        });
      }
    }
    if (nonces === undefined) this.byApp.set(appId, (nonces = new NonceTable()));
    nonces.set(nonce, expires, now);
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
    let removed = 0;
    for (const [appId, nonces] of this.byApp) {
      removed += nonces.prune(now);
      if (nonces.size === 0) this.byApp.delete(appId);
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
    journal.forEachLive(now, (appId, nonce, expires) => {
      let nonces = this.byApp.get(appId);
      if (nonces === undefined) this.byApp.set(appId, (nonces = new NonceTable()));
      nonces.set(nonce, expires, now);
    });
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
