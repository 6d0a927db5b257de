import type { Db } from './db/open.js';
import { systemClock, type Clock } from './clock.js';
import type { SecretCipher } from './crypto/cipher.js';
import { OrgRepository } from './orgs/orgs.js';
import { DefinitionRepository } from './objects/definitions.js';
import { ObjectStore } from './objects/store.js';
import { ParsedAggregations, ParsedListQueries } from './query/parsed-lists.js';
import { AppRepository } from './apps/apps.js';
import { CredentialRepository } from './accounts/credentials.js';
import { SessionRepository } from './auth/sessions/sessions.js';
import { DataVersion, VersionedCache } from './db/data-version.js';
import type { PrincipalLookup } from './access/principal.js';
import { VerifiedTokenCache } from './auth/tokens/verified-tokens.js';
import { TokenStore } from './auth/tokens/token-store.js';
import { ReplayStore, type ReplayLimits } from './auth/signatures/replay-store.js';
import { journalBeside } from './auth/signatures/replay-journal.js';
import { AccountTicketRepository } from './auth/sessions/account-tickets.js';
import { LocationRepository } from './auth/sessions/location.js';
import { OutboxRepository } from './accounts/outbox.js';
import { RequestCounterRepository } from './accounts/anonymous-limits.js';
import { UnknownEmailLockoutRepository } from './auth/sessions/unknown-email-lockout.js';
import { ScriptRunner } from './scripting/runner.js';
import { ViewCache } from './views/view-cache.js';
import { JobRunRepository } from './jobs/job-runs.js';

export interface ServiceDeps {
  db: Db;
  cipher: SecretCipher;
  clock?: Clock;
  /** Bounds of the replay store per app, per org and in all (defaults in replay-shares.ts; tests use less). */
  replayLimits?: Partial<ReplayLimits>;
  /** The better-sqlite3 binary `db` was opened with (Electron's), for connections in worker threads. */
  nativeBinding?: string;
}

/** Everything a request handler needs, built once per database: every repository is reached here. */
export class Service {
  readonly db: Db;
  /** The better-sqlite3 binary of `db` when it is not node_modules' own (Electron's ABI). */
  readonly nativeBinding: string | undefined;
  readonly clock: Clock;
  readonly cipher: SecretCipher;
  readonly orgs: OrgRepository;
  readonly defs: DefinitionRepository;
  readonly store: ObjectStore;
  readonly apps: AppRepository;
  readonly credentials: CredentialRepository;
  readonly sessions: SessionRepository;
  /** Stored JWTs (permanent and limited-use) and their revocation. */
  readonly issuedTokens: TokenStore;
  /** Account tickets: the single-use secrets of email verification and password reset (not JWTs). */
  readonly accountTickets: AccountTicketRepository;
  /** Nonces of signed requests inside their window (in memory, journalled to their own file). */
  readonly replays: ReplayStore;
  readonly locations: LocationRepository;
  readonly outbox: OutboxRepository;
  /** Rate limits of anonymous register and password-reset requests. */
  readonly requestCounters: RequestCounterRepository;
  /** Lock-out counts of login emails that belong to no account. */
  readonly unknownEmails: UnknownEmailLockoutRepository;
  /** Moves on every commit (ours or another process's): what in-memory caches key on. */
  readonly versions: DataVersion;
  /** Bearer tokens whose signature was verified, until the data version moves (verified-tokens.ts). */
  readonly verifiedTokens: VerifiedTokenCache;
  /** Parsed list queries by their raw arguments, per definition (query/parsed-lists.ts). */
  readonly listQueries = new ParsedListQueries();
  /** Parsed aggregations by their raw text arguments, per definition (query/parsed-lists.ts). */
  readonly aggregations = new ParsedAggregations();
  /** Compiled views, one compile per view version (views/view-cache.ts). */
  readonly views = new ViewCache();
  /** Job runs claimed by the schedulers of every process on the data folder (issue 41). */
  readonly jobRuns: JobRunRepository;
  /** Whom a signed request acts as, by `<orgId>:<account id or email>`, until the data version moves. */
  readonly signingPrincipals: VersionedCache<string, PrincipalLookup>;

  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.nativeBinding = deps.nativeBinding;
    this.clock = deps.clock ?? systemClock;
    this.cipher = deps.cipher;
    this.versions = new DataVersion(this.db);
    this.orgs = new OrgRepository(this.db, this.versions);
    this.defs = new DefinitionRepository(this.db, this.versions);
    this.store = new ObjectStore(this.db, this.clock, this.versions);
    this.apps = new AppRepository(this.db, this.cipher, this.versions);
    this.credentials = new CredentialRepository(this.db);
    this.sessions = new SessionRepository(this.db, this.versions);
    this.issuedTokens = new TokenStore(this.db, this.versions);
    this.accountTickets = new AccountTicketRepository(this.db);
    this.replays = new ReplayStore(journalBeside(this.db, this.nativeBinding), {
      ...(deps.replayLimits ? { limits: deps.replayLimits } : {}),
      legacyDb: this.db,
      orgOfApp: (appId) => this.apps.byId(appId)?.orgId,
    });
    this.locations = new LocationRepository(this.db);
    this.outbox = new OutboxRepository(this.db, this.cipher);
    this.requestCounters = new RequestCounterRepository(this.db);
    this.unknownEmails = new UnknownEmailLockoutRepository(this.db);
    this.verifiedTokens = new VerifiedTokenCache(this.versions);
    this.signingPrincipals = new VersionedCache(this.versions, 1000);
    this.jobRuns = new JobRunRepository(this.db);
  }

  /**
   * Opens another data folder that holds a service (a deployment's folder target), never creating
   * one; the caller closes it. Set by open-service.ts, which knows how services open (the
   * environment code that needs it is below it).
   */
  openDataFolder: (dir: string, clock: Clock) => Service = () => {
    throw new Error('This service cannot open other data folders.');
  };

  private runner?: ScriptRunner;

  /**
   * The script sandbox (a pool of worker threads), started on first use. Three workers, at most two
   * for one org's runs: one org's runaway scripts leave a worker for every other org (issue 38).
   */
  get scripts(): ScriptRunner {
    this.runner ??= new ScriptRunner({ poolSize: 3, queue: { maxBusyPerOrg: 2 }, clock: this.clock });
    return this.runner;
  }

  /** Stops the sandbox's workers (the server's onClose calls this); a later use starts a new pool. */
  async closeScripts(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    await runner?.close();
  }

  /** Closes the replay journal (letting go of its lock) and the database. */
  close(): void {
    this.replays.close();
    if (this.db.open) this.db.close();
  }

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
