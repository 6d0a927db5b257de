import type { Service } from './service.js';
import { pruneServiceRecords } from './logs/retention.js';

export const DAY_MS = 24 * 60 * 60_000;
/** How often the service prunes while it runs (it also prunes once when it starts). */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/** Rows forgotten by one run, by what they were. */
export interface PruneCounts {
  sessions: number;
  accountTickets: number;
  locationCodes: number;
  nonces: number;
  outbox: number;
  storedTokens: number;
  requestCounters: number;
  unknownEmails: number;
  /** Script run logs and audit entries past the org's retention (issue 41). */
  logs: number;
  audits: number;
  /** Job runs kept as long as logs (`logRetentionDays`). */
  jobRuns: number;
}

/**
 * Nothing the service keeps grows forever (issue #13 item 9). Each kind is pruned by its own short
 * statement, so no run holds the write lock for long; retention comes from the org's settings
 * (`sessionRetentionDays`, `outboxRetentionDays`, `logRetentionDays`, `auditRetentionDays`), everything else goes once it can no longer
 * matter. Time is the service clock, so tests prune at exact instants.
 */
export function pruneOnce(svc: Service): PruneCounts {
  const now = svc.clock.now();
  const counts: PruneCounts = {
    sessions: 0,
    accountTickets: svc.accountTickets.prune(now),
    locationCodes: svc.locations.pruneExpired(now),
    nonces: svc.replays.prune(now),
    outbox: 0,
    storedTokens: svc.issuedTokens.pruneDead(now),
    requestCounters: svc.requestCounters.prune(now),
    unknownEmails: svc.unknownEmails.prune(now),
    logs: 0,
    audits: 0,
    jobRuns: 0,
  };
  for (const org of svc.orgs.list()) {
    // At least a day: no app keeps an idle session alive longer (authDuration ≤ 86400 s), so a live
    // session is never pruned whatever an imported setting says.
    const sessionDays = Math.max(1, org.settings.sessionRetentionDays);
    counts.sessions += svc.sessions.prune(org.id, now - sessionDays * DAY_MS);
    counts.outbox += svc.outbox.prune(org.id, now - Math.max(1, org.settings.outboxRetentionDays) * DAY_MS);
    const logsBefore = now - Math.max(1, org.settings.logRetentionDays) * DAY_MS;
    counts.logs += pruneServiceRecords(svc, org, 'log', logsBefore);
    counts.jobRuns += svc.jobRuns.prune(org.id, logsBefore);
    counts.audits += pruneServiceRecords(
      svc,
      org,
      'audit',
      now - Math.max(1, org.settings.auditRetentionDays) * DAY_MS,
    );
  }
  return counts;
}

/**
 * Runs `pruneOnce` at start and then every `intervalMs`. The timer is unref'd (it never keeps the
 * process alive) and `stop` ends it; the server stops it on close.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly svc: Service,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Whether the timer would keep the process alive (it never should). */
  get keepsProcessAlive(): boolean {
    return this.timer?.hasRef() ?? false;
  }

  start(intervalMs = HOUSEKEEPING_INTERVAL_MS): void {
    if (this.timer) return;
    this.runSafely();
    this.timer = setInterval(() => this.runSafely(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A busy database (another process's long write) only delays pruning to the next run. */
  private runSafely(): void {
    try {
      pruneOnce(this.svc);
    } catch (err) {
      this.onError(err);
    }
  }
}
