import type { Db } from '../db/open.js';
import { type DataVersion, VersionedCache } from '../db/data-version.js';
import { fault } from '../../../src-shared/faults.js';
import { statements, type Statements } from '../db/statements.js';
import { DEFAULT_ORG_SETTINGS, storedOrgSettings, type OrgSettings } from './settings.js';

export const ORG_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export { DEFAULT_ORG_SETTINGS, type OrgSettings } from './settings.js';

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
  settings: storedOrgSettings(JSON.parse(r.settings) as Record<string, unknown>),
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
    return this.db
      .transaction(() => {
        const info = this.sql
          .fixed('INSERT INTO orgs (code, name, settings, created) VALUES (?, ?, ?, ?)')
          .run(code, name, JSON.stringify(DEFAULT_ORG_SETTINGS), created);
        const id = Number(info.lastInsertRowid);
        // The first org of a data folder is the operator's (docs/orgs-and-apps.md), whoever made it: the
        // setup form, `serve --admin-email`, or the command line. Later orgs never take its place.
        this.sql.fixed("INSERT OR IGNORE INTO service_settings (key, value) VALUES ('operatorOrg', ?)").run(String(id));
        return this.byId(id)!;
      })
      .immediate();
  }

  /**
   * The id of the org whose administrators are the service operator (docs/orgs-and-apps.md; access/operator.ts):
   * the org created at first start, as recorded then. Undefined before any org exists.
   */
  operatorOrgId(): number | undefined {
    const row = this.sql.fixed("SELECT value FROM service_settings WHERE key = 'operatorOrg'").get() as
      { value: string } | undefined;
    return row ? Number(row.value) : undefined;
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

  /**
   * Applies a patch to the stored settings (not to the caller's copy, which may be stale). A patch
   * computed from the settings themselves (a counter, one key of `scriptConfig` or `scriptLimits`)
   * is a function of them: it is called with the stored settings under the write lock, so another
   * process's change between the read and the write is not lost. What it throws rolls back; when it
   * answers nothing, nothing is written.
   */
  updateSettings(
    org: Org,
    patch: Partial<OrgSettings> | ((stored: OrgSettings) => Partial<OrgSettings> | undefined),
  ): Org {
    return this.db
      .transaction(() => {
        const current = this.byId(org.id);
        if (!current) throw fault('notFound', 'org', { reason: `Org ${org.code} no longer exists.` });
        const change = typeof patch === 'function' ? patch(current.settings) : patch;
        if (change === undefined) return current;
        this.versions.bump();
        this.sql
          .fixed('UPDATE orgs SET settings = ? WHERE id = ?')
          .run(JSON.stringify({ ...current.settings, ...change }), org.id);
        return this.byId(org.id)!;
      })
      .immediate();
  }
}
