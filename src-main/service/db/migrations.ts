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
    name: 'session client address and user agent',
    sql: `
      ALTER TABLE sessions ADD COLUMN ip TEXT;
      ALTER TABLE sessions ADD COLUMN user_agent TEXT;
    `,
  },
];
