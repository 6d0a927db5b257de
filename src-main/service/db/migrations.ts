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
];
