import { fault } from '../../../../src-shared/faults.js';
import { NonceTable } from './nonce-table.js';

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

/**
 * How many nonces the apps of one org may have remembered together (issue 38 low 7). An org's
 * administrator makes as many apps as they like, so per-app shares alone bound nothing: this does.
 * Twice an app's share, so one app alone never fills it and blocks its org's other apps.
 */
export const MAX_REPLAY_NONCES_PER_ORG = 2_000_000;

/**
 * How many nonces the whole service remembers (issue 38 low 7): about 400 MB of tables at worst.
 * Four times an org's share, so no one org fills it and blocks the others (orgs are created by
 * the operator, not by org administrators, so filling it takes the operator's own orgs).
 */
export const MAX_REPLAY_NONCES = 8_000_000;

export interface ReplayLimits {
  perApp: number;
  perOrg: number;
  total: number;
}

/**
 * A full org share or a full store is decided again after pruning, but at most this often: a
 * prune walks every table of the org (or of the service), which a flood of refused requests must
 * not repeat for each one. An app's own share is pruned on every refusal (one table, as before).
 */
const FULL_PRUNE_INTERVAL_MS = 1000;

/**
 * The tables of remembered nonces, one per app (so one app's load never slows another's lookups),
 * with running counts per org and in all, and the three bounds on them. Every count includes
 * entries that expired and were not dropped yet; a bound that looks reached is decided again
 * after dropping them, so an expired entry never keeps a request out for more than the prune
 * interval, and a live one is never forgotten to make room: a full share refuses new nonces
 * (`throttled.policy`) and never reopens a replay window.
 */
export class ReplayShares {
  private readonly byApp = new Map<number, NonceTable>();
  /** The org of each app seen (or -appId when it has none any more: a share of its own). */
  private readonly orgOfApp = new Map<number, number>();
  private readonly perOrg = new Map<number, number>();
  private total = 0;
  private readonly lastFullPrune = new Map<string, number>();

  constructor(
    private readonly limits: ReplayLimits,
    private readonly findOrg: (appId: number) => number | undefined,
  ) {}

  /** The expiry remembered for an app's nonce (live or not), or undefined. */
  get(appId: number, nonce: string): number | undefined {
    return this.byApp.get(appId)?.get(nonce);
  }

  /**
   * Remembers a nonce. `isNew`: the app has no entry for it (an expired entry is replaced in place
   * and takes no new room); a new one needs room in the app's, the org's and the service's share.
   */
  set(appId: number, nonce: string, expires: number, now: number, isNew: boolean): void {
    if (isNew) this.makeRoom(appId, now);
    let table = this.byApp.get(appId);
    if (table === undefined) this.byApp.set(appId, (table = new NonceTable()));
    this.counted(appId, table, () => table.set(nonce, expires, now));
  }

  /** Drops expired entries everywhere; returns how many. */
  prune(now: number): number {
    let removed = 0;
    for (const [appId, table] of this.byApp) removed += this.pruneApp(appId, table, now);
    return removed;
  }

  forgetApp(appId: number): void {
    const table = this.byApp.get(appId);
    if (table) this.counted(appId, table, () => this.byApp.delete(appId), -table.size);
    this.orgOfApp.delete(appId);
  }

  countedNonces(appId: number): number {
    return this.byApp.get(appId)?.size ?? 0;
  }

  /** Nonces remembered, all apps (after pruning, all of them are live). */
  size(): number {
    return this.total;
  }

  clear(): void {
    this.byApp.clear();
    this.orgOfApp.clear();
    this.perOrg.clear();
    this.total = 0;
    this.lastFullPrune.clear();
  }

  private makeRoom(appId: number, now: number): void {
    const table = this.byApp.get(appId);
    if (table !== undefined && table.size >= this.limits.perApp) {
      this.pruneApp(appId, table, now);
      if (table.size >= this.limits.perApp) throw full('This application has');
    }
    const org = this.orgKey(appId);
    if ((this.perOrg.get(org) ?? 0) >= this.limits.perOrg) {
      this.pruneWhen(`org:${org}`, now, (id) => this.orgKey(id) === org);
      if ((this.perOrg.get(org) ?? 0) >= this.limits.perOrg) throw full("This org's applications have");
    }
    if (this.total >= this.limits.total) {
      this.pruneWhen('all', now, () => true);
      if (this.total >= this.limits.total) throw full('The service has');
    }
  }

  /** Prunes the tables of the apps `which` selects, unless that was done less than a second ago. */
  private pruneWhen(scope: string, now: number, which: (appId: number) => boolean): void {
    const last = this.lastFullPrune.get(scope);
    if (last !== undefined && now - last < FULL_PRUNE_INTERVAL_MS && now >= last) return;
    this.lastFullPrune.set(scope, now);
    for (const [appId, table] of this.byApp) if (which(appId)) this.pruneApp(appId, table, now);
  }

  private pruneApp(appId: number, table: NonceTable, now: number): number {
    const before = table.size;
    this.counted(appId, table, () => table.prune(now));
    if (table.size === 0) this.byApp.delete(appId);
    return before - table.size;
  }

  /** Runs `change` on an app's table and moves the org's and the service's counts by what it did. */
  private counted(appId: number, table: NonceTable, change: () => unknown, known?: number): void {
    const before = table.size;
    change();
    const delta = known ?? table.size - before;
    if (delta === 0) return;
    const org = this.orgKey(appId);
    this.perOrg.set(org, (this.perOrg.get(org) ?? 0) + delta);
    this.total += delta;
  }

  private orgKey(appId: number): number {
    let org = this.orgOfApp.get(appId);
    if (org === undefined) this.orgOfApp.set(appId, (org = this.findOrg(appId) ?? -appId));
    return org;
  }
}

function full(who: string) {
  return fault('throttled', 'policy', {
    reason: `${who} too many signed requests in the replay window; the service refuses new ones until older ones expire.`,
  });
}
