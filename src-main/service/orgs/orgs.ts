import type { Db } from '../db/open.js';
import { type DataVersion, VersionedCache } from '../db/data-version.js';
import { fault } from '../../../src-shared/faults.js';
import { statements, type Statements } from '../db/statements.js';

export const ORG_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface OrgSettings {
  /** Key of the session app the console logs in with. */
  consoleAppKey?: string;
  lockAttempts: number;
  /** Minutes; 0 = until an administrator unlocks. */
  lockDuration: number;
  allowSimultaneousLogins: boolean;
  /** Operators that can be turned off per org (decisions §8). */
  disableNegation: boolean;
  /** Whether `POST /accounts/register` is open (decisions §5). */
  registrationEnabled: boolean;
  /**
   * Two-factor by new-location verification (decisions §5). Off by default: the codes go to the
   * local outbox, which only an administrator can read in the console, so with this on the org's
   * first administrator could not log in from a new browser — offline there is no mailbox to
   * receive the code. Turn it on once a second administrator or TOTP is set up.
   */
  verifyNewLocations: boolean;
  /**
   * Anonymous `register` and `request-password-reset` requests allowed per hour, per email address
   * and per org (each route counted on its own); beyond, `throttled.policy` (issue #13 item 9).
   */
  anonymousRequestsPerEmail: number;
  anonymousRequestsPerOrg: number;
  /** Days an ended or idle session is kept (so its old cookie can still say why it ended). */
  sessionRetentionDays: number;
  /** Days an outbox message is kept. */
  outboxRetentionDays: number;
  /** Overrides of the script sandbox limits by name (scripting/limits.ts); absent = the original's defaults. */
  scriptLimits?: Record<string, number>;
}

export const DEFAULT_ORG_SETTINGS: OrgSettings = {
  lockAttempts: 5,
  lockDuration: 15,
  allowSimultaneousLogins: false,
  disableNegation: false,
  registrationEnabled: true,
  verifyNewLocations: false,
  anonymousRequestsPerEmail: 5,
  anonymousRequestsPerOrg: 100,
  sessionRetentionDays: 7,
  outboxRetentionDays: 30,
};

export interface Org {
  id: number;
  code: string;
  name: string;
  settings: OrgSettings;
  created: string;
}

interface OrgRow {
  id: number;
  code: string;
  name: string;
  settings: string;
  created: string;
}

const toOrg = (r: OrgRow): Org => ({
  ...r,
  settings: { ...DEFAULT_ORG_SETTINGS, ...(JSON.parse(r.settings) as Partial<OrgSettings>) },
});

/** Orgs: the tenants of the service, addressed as `/<code>/v2`. */
export class OrgRepository {
  /**
   * Orgs are read on every request; the cache empties on any commit, ours or another process's
   * (`npm run admin -- org set …` against a running service takes effect at once).
   */
  private readonly byCodeCache: VersionedCache<string, Org | undefined>;

  private readonly sql: Statements;

  constructor(
    private readonly db: Db,
    private readonly versions: DataVersion,
  ) {
    this.sql = statements(db);
    this.byCodeCache = new VersionedCache(versions, 1000);
  }

  create(code: string, name: string, created: string): Org {
    if (!ORG_CODE_PATTERN.test(code)) {
      throw fault('invalidArgument', 'org', { reason: 'Org codes are lower-case letters, digits and -.' });
    }
    if (this.byCode(code)) throw fault('exists', 'org', { reason: `Org ${code} already exists.` });
    this.versions.bump();
    const info = this.sql
      .fixed('INSERT INTO orgs (code, name, settings, created) VALUES (?, ?, ?, ?)')
      .run(code, name, JSON.stringify(DEFAULT_ORG_SETTINGS), created);
    return this.byId(Number(info.lastInsertRowid))!;
  }

  byId(id: number): Org | undefined {
    const row = this.sql.fixed('SELECT * FROM orgs WHERE id = ?').get(id) as OrgRow | undefined;
    return row ? toOrg(row) : undefined;
  }

  byCode(code: string): Org | undefined {
    return this.byCodeCache.get(code, () => {
      const row = this.sql.fixed('SELECT * FROM orgs WHERE code = ?').get(code) as OrgRow | undefined;
      return row ? toOrg(row) : undefined;
    });
  }

  list(): Org[] {
    return (this.sql.fixed('SELECT * FROM orgs ORDER BY id').all() as OrgRow[]).map(toOrg);
  }

  /** Applies a patch to the stored settings (not to the caller's copy, which may be stale). */
  updateSettings(org: Org, patch: Partial<OrgSettings>): Org {
    // Read and written under one write lock, so another process's change in between is not lost.
    return this.db
      .transaction(() => {
        const current = this.byId(org.id);
        if (!current) throw fault('notFound', 'org', { reason: `Org ${org.code} no longer exists.` });
        this.versions.bump();
        this.sql
          .fixed('UPDATE orgs SET settings = ? WHERE id = ?')
          .run(JSON.stringify({ ...current.settings, ...patch }), org.id);
        return this.byId(org.id)!;
      })
      .immediate();
  }
}
