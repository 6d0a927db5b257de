import type { Migration } from './migrate.js';

/**
 * Numbered migrations of the service's fixed tables. Never edit one that has shipped: add a new one
 * (start-up refuses a database whose applied migrations were edited). Object collections are
 * per-org tables created at run time by the object store, not here.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'orgs, definitions, apps, credentials, sessions',
    sql: `
      CREATE TABLE orgs (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}',
        created TEXT NOT NULL
      );
      CREATE TABLE object_defs (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        collection TEXT NOT NULL,
        def TEXT NOT NULL,
        PRIMARY KEY (org_id, name),
        UNIQUE (org_id, collection)
      );
      CREATE TABLE apps (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('session', 'signing')),
        settings TEXT NOT NULL,
        secret_enc TEXT,
        created TEXT NOT NULL
      );
      CREATE TABLE app_keys (
        id INTEGER PRIMARY KEY,
        app_id INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        kid TEXT NOT NULL,
        alg TEXT NOT NULL,
        public_pem TEXT NOT NULL,
        private_enc TEXT NOT NULL,
        current INTEGER NOT NULL,
        created TEXT NOT NULL
      );
      CREATE INDEX app_keys_app ON app_keys(app_id, current);
      CREATE TABLE credentials (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        email TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        failed_attempts INTEGER NOT NULL DEFAULT 0,
        locked_until INTEGER,
        totp_secret_enc TEXT,
        totp_last_step INTEGER,
        PRIMARY KEY (org_id, account_id),
        UNIQUE (org_id, email)
      );
      CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        app_id INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        csrf TEXT NOT NULL,
        fingerprint TEXT,
        created INTEGER NOT NULL,
        last_seen INTEGER NOT NULL,
        ended_reason TEXT
      );
      CREATE INDEX sessions_account ON sessions(org_id, account_id);
    `,
  },
  {
    version: 2,
    name: 'replay store for signed requests',
    sql: `
      CREATE TABLE replay_entries (
        kind TEXT NOT NULL CHECK (kind IN ('nonce', 'signature')),
        value TEXT NOT NULL,
        app_id INTEGER NOT NULL,
        expires INTEGER NOT NULL,
        PRIMARY KEY (kind, value)
      ) WITHOUT ROWID;
      CREATE INDEX replay_entries_expires ON replay_entries(expires);
    `,
  },
  {
    version: 3,
    name: 'outbox, locations, password resets',
    sql: `
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        account_id TEXT,
        kind TEXT NOT NULL,
        recipient TEXT NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        created INTEGER NOT NULL
      );
      CREATE INDEX outbox_org ON outbox(org_id, id);
      CREATE TABLE known_locations (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created INTEGER NOT NULL,
        PRIMARY KEY (org_id, account_id, fingerprint)
      );
      CREATE TABLE location_verifications (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        code_hash TEXT NOT NULL,
        expires INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (org_id, account_id, fingerprint)
      );
      CREATE TABLE password_resets (
        token_hash TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        expires INTEGER NOT NULL,
        used INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 4,
    name: 'stored tokens (permanent and limited-use)',
    sql: `
      CREATE TABLE tokens (
        jti TEXT PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        app_id INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        kid TEXT NOT NULL,
        uses_remaining INTEGER,
        times_authorized INTEGER NOT NULL DEFAULT 0,
        last_authorized INTEGER,
        expires_at INTEGER,
        revoked INTEGER NOT NULL DEFAULT 0,
        created INTEGER NOT NULL
      );
      CREATE INDEX tokens_subject ON tokens(org_id, app_id, account_id, revoked);
    `,
  },
  {
    version: 5,
    name: 'environment import locks',
    sql: `
      CREATE TABLE environment_locks (
        org_id INTEGER PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
        holder TEXT NOT NULL,
        expires INTEGER NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'deployment run log',
    sql: `
      CREATE TABLE deployment_runs (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        deployment_id TEXT NOT NULL,
        by_email TEXT NOT NULL,
        started TEXT NOT NULL,
        finished TEXT NOT NULL,
        dry_run INTEGER NOT NULL,
        result TEXT NOT NULL,
        reason TEXT,
        changes TEXT NOT NULL
      );
      CREATE INDEX deployment_runs_deployment ON deployment_runs(org_id, deployment_id, id);
    `,
  },
  {
    version: 7,
    name: 'anonymous request counters, lock-outs of unknown emails, pruning indexes, account tickets',
    sql: `
      -- Password-reset and verification secrets are "tickets"; "token" means a JWT (issue #12).
      ALTER TABLE password_resets RENAME TO account_tickets;
      ALTER TABLE account_tickets RENAME COLUMN token_hash TO ticket_hash;
      CREATE TABLE request_counters (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        window_start INTEGER NOT NULL,
        expires INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX request_counters_expires ON request_counters(expires);
      CREATE TABLE unknown_email_lockouts (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        email_hash TEXT NOT NULL,
        failed_attempts INTEGER NOT NULL DEFAULT 0,
        locked_until INTEGER,
        last_attempt INTEGER NOT NULL,
        PRIMARY KEY (org_id, email_hash)
      ) WITHOUT ROWID;
      CREATE INDEX unknown_email_lockouts_last ON unknown_email_lockouts(org_id, last_attempt);
      CREATE INDEX sessions_last_seen ON sessions(last_seen);
      CREATE INDEX outbox_created ON outbox(created);
      CREATE INDEX account_tickets_expires ON account_tickets(expires);
      CREATE INDEX location_verifications_expires ON location_verifications(expires);
      `,
  },
  {
    // A signed request checks its app's share of the replay store: counting the app's nonces cost
    // one row visit per live nonce (tens of thousands under load), so triggers keep the count.
    version: 8,
    name: 'replay store: nonces counted per app',
    sql: `
      CREATE TABLE replay_counts (
        app_id INTEGER PRIMARY KEY,
        n INTEGER NOT NULL
      );
      INSERT INTO replay_counts (app_id, n)
        SELECT app_id, count(*) FROM replay_entries WHERE kind = 'nonce' GROUP BY app_id;
      CREATE TRIGGER replay_entries_counted AFTER INSERT ON replay_entries WHEN new.kind = 'nonce'
      BEGIN
        INSERT INTO replay_counts (app_id, n) VALUES (new.app_id, 1)
          ON CONFLICT (app_id) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER replay_entries_uncounted AFTER DELETE ON replay_entries WHEN old.kind = 'nonce'
      BEGIN
        UPDATE replay_counts SET n = n - 1 WHERE app_id = old.app_id;
      END;
    `,
  },
  {
    version: 9,
    name: 'session client address and user agent',
    sql: `
      ALTER TABLE sessions ADD COLUMN ip TEXT;
      ALTER TABLE sessions ADD COLUMN user_agent TEXT;
    `,
  },
  {
    // docs/orgs-and-apps.md: the operator is the administrators of the org created at first start, recorded
    // once (never inferred again); runs of other orgs' deployments are logged in the org they
    // read or wrote too, with who ran them from where (\`peer\`, JSON; NULL for the org's own runs).
    version: 10,
    name: 'operator org, deployment runs seen by the other side',
    sql: `
      CREATE TABLE service_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO service_settings (key, value)
        SELECT 'operatorOrg', CAST(min(id) AS TEXT) FROM orgs HAVING count(*) > 0;
      ALTER TABLE deployment_runs ADD COLUMN peer TEXT;
    `,
  },
  {
    // Issue 41: job runs, claimed here before they start. The unique key makes a scheduled slot run
    // once whatever number of service processes share the folder; an unfinished row of a job (no
    // `ended`) keeps its next slots from overlapping it. Manual runs ("run now") are rows too.
    version: 11,
    name: 'job runs',
    sql: `
      CREATE TABLE job_runs (
        id INTEGER PRIMARY KEY,
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        job TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('schedule', 'manual')),
        slot INTEGER NOT NULL,
        runner TEXT NOT NULL,
        started INTEGER NOT NULL,
        ended INTEGER,
        outcome TEXT CHECK (outcome IN ('ok', 'fault')),
        err_code TEXT,
        log_id TEXT,
        UNIQUE (org_id, job, kind, slot)
      );
      CREATE INDEX job_runs_job ON job_runs(org_id, job, started);
      CREATE INDEX job_runs_started ON job_runs(started);
    `,
  },
  {
    // Issue 40: the org's configured request policies (the original's `org.policies`, mdctl's
    // `env/policies`; policies/policy-store.ts), and the library `@policy` declarations an
    // operator switched off from the command line (`admin policy disable`: a locked-out
    // administrator's way back, docs/cli.md).
    version: 12,
    name: 'org policies',
    sql: `
      CREATE TABLE org_policies (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (org_id, name)
      ) WITHOUT ROWID;
      CREATE TABLE disabled_policies (
        org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        policy TEXT NOT NULL,
        PRIMARY KEY (org_id, policy)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Issue 41: the org's cap on job runs a day (jobs/job-cap.ts) counts the org's runs of the last
    // 24 hours before each run; by org and start, that count reads only the window's rows.
    version: 13,
    name: 'job runs by org and start',
    sql: `CREATE INDEX job_runs_org_started ON job_runs(org_id, started);`,
  },
];
