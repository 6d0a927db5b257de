import type { Db } from '../db/open.js';
import { fault } from '../../../src-shared/faults.js';
import { statements, type Statements } from '../db/statements.js';
import { type DataVersion, VersionedCache } from '../db/data-version.js';
import type { SecretCipher } from '../crypto/cipher.js';
import { randomAlphanumeric } from '../crypto/random.js';
import { generateRsaKeyPair, type RsaKeyPair } from '../crypto/rsa.js';
import { AppKeyTable, type AppKey, type AppKeyInfo, type ExposedKey, type SealedSigningKey } from './app-keys.js';
import type { AppKind, AppSettings, SigningAlg } from '../../../src-shared/contracts/apps.js';
import { signatureKey } from '../../../src-shared/contracts/signing.js';
import { HmacSha256Key } from '../crypto/hmac-sha256.js';

export type { AppKind, AppSettings } from '../../../src-shared/contracts/apps.js';

export const DEFAULT_APP_SETTINGS: Omit<AppSettings, 'label'> = {
  enabled: true,
  readOnly: false,
  expires: null,
  authDuration: 900,
  csrf: true,
  allowUnsigned: false,
  requireSignatureV2: false,
  principalOverride: false,
  principalId: null,
  maxTokensPerPrincipal: 10,
  expose: false,
  alg: 'PS512',
  corsOrigins: [],
  ipAllow: [],
  ipDeny: [],
  allowNameMapping: false,
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

/** A `name: null` in a patch removes the name (settings.ts). */
function withoutNullName(settings: AppSettings): AppSettings {
  if ((settings.name as unknown) !== null) return settings;
  const { name: _removed, ...rest } = settings;
  return rest;
}

/** Applications: keys, encrypted secrets and per-app RSA key pairs (the pairs' table: app-keys.ts). */
export class AppRepository {
  private readonly statements: Statements;
  private readonly byKeyCache: VersionedCache<string, App | undefined>;
  /** The `app_keys` table (key pairs), reached through this repository. */
  private readonly keys: AppKeyTable;
  /**
   * Every signed request needs its app's HMAC key: decrypted once per data version and kept as its
   * HMAC pads (Buffers outside the JS heap, never a string a log line or heap dump shows).
   */
  private readonly hmacKeyCache: VersionedCache<number, HmacSha256Key | null>;

  constructor(
    private readonly db: Db,
    private readonly cipher: SecretCipher,
    private readonly versions: DataVersion,
  ) {
    this.statements = statements(db);
    this.byKeyCache = new VersionedCache(versions, 1000);
    this.keys = new AppKeyTable((sql) => this.stmt(sql), cipher, versions);
    this.hmacKeyCache = new VersionedCache(versions, 1000);
  }

  /**
   * Prepared once: the app is looked up on every request that names a key. A write marks the data
   * version first, so the app cache never serves a row from before it.
   */
  private stmt(sql: string) {
    if (/^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql)) this.versions.bump();
    return this.statements.fixed(sql);
  }

  /** Creates an app with its key, its secret (signing apps) and a current RSA pair. */
  async create(
    orgId: number,
    kind: AppKind,
    settings: Partial<AppSettings> & { label: string },
    created: string,
  ): Promise<{ app: App; secret?: string }> {
    return this.createWithPair(orgId, kind, settings, created, await generateRsaKeyPair());
  }

  /**
   * `create` with a key pair generated beforehand: synchronous, so it can run inside a caller's
   * transaction (an environment import creates apps all or nothing).
   */
  createWithPair(
    orgId: number,
    kind: AppKind,
    settings: Partial<AppSettings> & { label: string },
    created: string,
    pair: RsaKeyPair,
  ): { app: App; secret?: string } {
    const key = randomAlphanumeric(22);
    const secret = kind === 'signing' ? randomAlphanumeric(64) : undefined;
    const full = withoutNullName({ ...DEFAULT_APP_SETTINGS, ...settings });
    const id = this.db.transaction(() => {
      this.assertNameFree(orgId, full.name);
      const info = this.stmt(
        'INSERT INTO apps (org_id, key, kind, settings, secret_enc, created) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(orgId, key, kind, JSON.stringify(full), secret ? this.cipher.encrypt(secret) : null, created);
      const appId = Number(info.lastInsertRowid);
      this.keys.insertCurrent(appId, pair, full.alg, created);
      return appId;
    })();
    return { app: this.byId(id)!, ...(secret ? { secret } : {}) };
  }

  byId(id: number): App | undefined {
    const row = this.stmt('SELECT * FROM apps WHERE id = ?').get(id) as AppRow | undefined;
    return row ? toApp(row) : undefined;
  }

  /** The app for a key; cached until anything is written (here or by another process). Do not mutate. */
  byKey(key: string): App | undefined {
    return this.byKeyCache.get(key, () => {
      const row = this.stmt('SELECT * FROM apps WHERE key = ?').get(key) as AppRow | undefined;
      return row ? toApp(row) : undefined;
    });
  }

  /**
   * The org's app a client names by its key or, where the app allows name mapping, by its name
   * (the original's `allowNameMapping`). A key is tried first, and only within the org, so another
   * org's key never shadows a name.
   */
  byKeyOrName(orgId: number, keyOrName: string): App | undefined {
    const byKey = this.byKey(keyOrName);
    if (byKey?.orgId === orgId) return byKey;
    return this.list(orgId).find((a) => a.settings.allowNameMapping && a.settings.name === keyOrName);
  }

  /** App names are unique in an org (they address the app). */
  private assertNameFree(orgId: number, name: string | undefined, selfId?: number): void {
    if (name === undefined) return;
    const taken = this.list(orgId).find((a) => a.id !== selfId && a.settings.name === name);
    if (taken) {
      throw fault('validation', 'conflict', {
        path: 'name',
        reason: `Another application of the org is named ${name}.`,
      });
    }
  }

  list(orgId: number): App[] {
    return (this.stmt('SELECT * FROM apps WHERE org_id = ? ORDER BY id').all(orgId) as AppRow[]).map(toApp);
  }

  /**
   * Patches the settings of an app (callers validate first: see settings.ts). The patch applies to
   * the stored settings, read under the write lock, not to the caller's possibly cached copy: a
   * change another process made a moment ago is kept.
   */
  update(app: App, patch: Partial<AppSettings>): App {
    return this.db
      .transaction(() => {
        const stored = this.byId(app.id);
        if (!stored) throw fault('notFound', 'app', { reason: 'The application no longer exists.' });
        const settings = withoutNullName({ ...stored.settings, ...patch });
        this.assertNameFree(stored.orgId, settings.name, stored.id);
        this.stmt('UPDATE apps SET settings = ? WHERE id = ?').run(JSON.stringify(settings), app.id);
        return this.byId(app.id)!;
      })
      .immediate();
  }

  /**
   * Deletes an app. Its key pairs, sessions and stored tokens go with it (foreign keys cascade);
   * the caller forgets its nonces (`svc.replays.forgetApp`), which are not in this database.
   */
  remove(app: App): void {
    this.stmt('DELETE FROM apps WHERE id = ?').run(app.id);
  }

  /** A new secret for a signing app; every signature made with the old one stops verifying. */
  rotateSecret(app: App): string {
    if (app.kind !== 'signing') throw new Error('only signing apps have a secret');
    const secret = randomAlphanumeric(64);
    this.stmt('UPDATE apps SET secret_enc = ? WHERE id = ?').run(this.cipher.encrypt(secret), app.id);
    return secret;
  }

  /**
   * A new current RSA pair. The old pair is kept as current = 0 (history) and is never used to sign
   * or verify again, so every token of the app becomes invalid; stored tokens are marked revoked so
   * they stop counting against maxTokensPerPrincipal.
   */
  async regenerateRsa(app: App, created: string, alg: SigningAlg = app.settings.alg): Promise<AppKeyInfo> {
    const pair = await generateRsaKeyPair();
    this.db.transaction(() => {
      this.keys.retireCurrent(app.id);
      this.keys.insertCurrent(app.id, pair, alg, created);
      this.stmt('UPDATE tokens SET revoked = 1 WHERE app_id = ? AND revoked = 0').run(app.id);
    })();
    return { kid: pair.kid, alg, created };
  }

  /** The current key's public facts, for display (nothing is decrypted). */
  currentKeyInfo(appId: number): AppKeyInfo | undefined {
    return this.keys.currentKeyInfo(appId);
  }

  /** The current key pair, private half decrypted, for signing; never log or return `privatePem`. */
  currentKey(appId: number): AppKey | undefined {
    return this.keys.currentKey(appId);
  }

  /** The current key for signing and verifying tokens, private half encrypted (see AppKeyTable). */
  currentSigningKey(appId: number): SealedSigningKey | undefined {
    return this.keys.currentSigningKey(appId);
  }

  /** The PEM of a key read by `currentSigningKey`, decrypted; never log or return it. */
  decryptPrivateKey(key: SealedSigningKey): string {
    return this.keys.decryptPrivateKey(key);
  }

  /** Public keys of the org's enabled apps that expose them (the spec's Expose Keys), current keys only. */
  exposedKeys(orgId: number): ExposedKey[] {
    const rows = this.stmt(
      `SELECT k.kid, k.alg, k.public_pem, a.settings FROM app_keys k JOIN apps a ON a.id = k.app_id
         WHERE a.org_id = ? AND k.current = 1 ORDER BY a.id`,
    ).all(orgId) as { kid: string; alg: SigningAlg; public_pem: string; settings: string }[];
    return rows
      .filter((r) => {
        const s = { ...DEFAULT_APP_SETTINGS, ...(JSON.parse(r.settings) as Partial<AppSettings>) };
        return s.expose && s.enabled;
      })
      .map((r) => ({ kid: r.kid, alg: r.alg, publicPem: r.public_pem }));
  }

  /** Stored (permanent and limited-use) tokens of the app that are not revoked. */
  storedTokenCount(appId: number): number {
    return (this.stmt('SELECT count(*) AS n FROM tokens WHERE app_id = ? AND revoked = 0').get(appId) as { n: number })
      .n;
  }

  /** Stored tokens a key-pair regeneration would stop: not revoked and not yet expired. */
  liveStoredTokenCount(appId: number, now: number): number {
    return (
      this.stmt(
        'SELECT count(*) AS n FROM tokens WHERE app_id = ? AND revoked = 0 AND (expires_at IS NULL OR expires_at > ?)',
      ).get(appId, now) as { n: number }
    ).n;
  }

  /** The decrypted secret, for signature checks only; never logged or returned after creation. */
  secret(app: App): string | undefined {
    const row = this.stmt('SELECT secret_enc FROM apps WHERE id = ?').get(app.id) as
      { secret_enc: string | null } | undefined;
    return row?.secret_enc ? this.cipher.decrypt(row.secret_enc) : undefined;
  }

  /** The key signed requests of a signing app are checked with (HMAC over `key + secret`). */
  signatureHmacKey(app: App): HmacSha256Key | undefined {
    const key = this.hmacKeyCache.get(app.id, () => {
      const secret = this.secret(app);
      return secret === undefined ? null : new HmacSha256Key(Buffer.from(signatureKey(app.key, secret), 'utf8'));
    });
    return key ?? undefined;
  }
}
