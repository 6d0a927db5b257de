import type { Db } from '../db/open.js';
import type { SecretCipher } from '../crypto/cipher.js';
import { randomAlphanumeric } from '../crypto/random.js';
import { generateRsaKeyPair, type SigningAlg } from '../crypto/rsa.js';

export type AppKind = 'session' | 'signing';

/** Every setting of decisions §3 except the key, secret and RSA pair, which live apart. */
export interface AppSettings {
  label: string;
  enabled: boolean;
  readOnly: boolean;
  /** ISO date after which the app stops working, or null. */
  expires: string | null;
  /** Seconds: session inactivity timeout and default token lifetime (60–86400). */
  authDuration: number;
  csrf: boolean;
  allowUnsigned: boolean;
  principalOverride: boolean;
  principalId: string | null;
  maxTokensPerPrincipal: number;
  expose: boolean;
  alg: SigningAlg;
  corsOrigins: string[];
  ipAllow: string[];
  ipDeny: string[];
}

export const DEFAULT_APP_SETTINGS: Omit<AppSettings, 'label'> = {
  enabled: true,
  readOnly: false,
  expires: null,
  authDuration: 900,
  csrf: true,
  allowUnsigned: false,
  principalOverride: false,
  principalId: null,
  maxTokensPerPrincipal: 10,
  expose: false,
  alg: 'PS512',
  corsOrigins: [],
  ipAllow: [],
  ipDeny: [],
};

export interface App {
  id: number;
  orgId: number;
  key: string;
  kind: AppKind;
  settings: AppSettings;
  hasSecret: boolean;
  created: string;
}

interface AppRow {
  id: number;
  org_id: number;
  key: string;
  kind: AppKind;
  settings: string;
  secret_enc: string | null;
  created: string;
}

const toApp = (r: AppRow): App => ({
  id: r.id,
  orgId: r.org_id,
  key: r.key,
  kind: r.kind,
  settings: { ...DEFAULT_APP_SETTINGS, ...(JSON.parse(r.settings) as AppSettings) },
  hasSecret: r.secret_enc !== null,
  created: r.created,
});

/** Applications: keys, encrypted secrets and per-app RSA key pairs. */
export class AppRepository {
  constructor(
    private readonly db: Db,
    private readonly cipher: SecretCipher,
  ) {}

  /** Creates an app with its key, its secret (signing apps) and a current RSA pair. */
  async create(
    orgId: number,
    kind: AppKind,
    settings: Partial<AppSettings> & { label: string },
    created: string,
  ): Promise<{ app: App; secret?: string }> {
    const pair = await generateRsaKeyPair();
    const key = randomAlphanumeric(22);
    const secret = kind === 'signing' ? randomAlphanumeric(64) : undefined;
    const full: AppSettings = { ...DEFAULT_APP_SETTINGS, ...settings };
    const id = this.db.transaction(() => {
      const info = this.db
        .prepare('INSERT INTO apps (org_id, key, kind, settings, secret_enc, created) VALUES (?, ?, ?, ?, ?, ?)')
        .run(orgId, key, kind, JSON.stringify(full), secret ? this.cipher.encrypt(secret) : null, created);
      const appId = Number(info.lastInsertRowid);
      this.db
        .prepare(
          'INSERT INTO app_keys (app_id, kid, alg, public_pem, private_enc, current, created) VALUES (?, ?, ?, ?, ?, 1, ?)',
        )
        .run(appId, pair.kid, full.alg, pair.publicPem, this.cipher.encrypt(pair.privatePem), created);
      return appId;
    })();
    return { app: this.byId(id)!, ...(secret ? { secret } : {}) };
  }

  byId(id: number): App | undefined {
    const row = this.db.prepare('SELECT * FROM apps WHERE id = ?').get(id) as AppRow | undefined;
    return row ? toApp(row) : undefined;
  }

  byKey(key: string): App | undefined {
    const row = this.db.prepare('SELECT * FROM apps WHERE key = ?').get(key) as AppRow | undefined;
    return row ? toApp(row) : undefined;
  }

  list(orgId: number): App[] {
    return (this.db.prepare('SELECT * FROM apps WHERE org_id = ? ORDER BY id').all(orgId) as AppRow[]).map(toApp);
  }

  /** The decrypted secret, for signature checks only; never logged or returned after creation. */
  secret(app: App): string | undefined {
    const row = this.db.prepare('SELECT secret_enc FROM apps WHERE id = ?').get(app.id) as
      { secret_enc: string | null } | undefined;
    return row?.secret_enc ? this.cipher.decrypt(row.secret_enc) : undefined;
  }
}
