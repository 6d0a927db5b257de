/**
 * The saved connections: names, URLs and non-secret fields in a JSON file in the app's userData;
 * each secret (token or app secret) sealed by a `SecretBox` — in the desktop app Electron's
 * `safeStorage`, i.e. the OS keychain's key — so the file never holds one in clear. Secrets come
 * back out only as a gateway target, in main; `list` and `save` answer without them.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ConnectionDraft, ConnectionInfo, CredentialKind } from '../../src-shared/contracts/connections.js';
import type { GatewayTarget } from './gateway.js';

/** Encrypts with a key the OS keeps (Keychain, DPAPI, libsecret/kwallet). */
export interface SecretBox {
  /** False when the OS offers no protected key: then no secret is stored at all. */
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

export class SecretStorageUnavailableError extends Error {
  override name = 'SecretStorageUnavailableError';
  constructor(doing: 'saving' | 'opening' = 'saving') {
    super(
      doing === 'saving'
        ? 'This system offers no protected storage (OS keychain), so the secret was not saved.'
        : 'This system offers no protected storage (OS keychain) to open the saved secret with.',
    );
  }
}

export class ConnectionNotFoundError extends Error {
  override name = 'ConnectionNotFoundError';
  constructor(id: string) {
    super(`No saved connection has the id ${id}.`);
  }
}

interface StoredConnection {
  id: string;
  name: string;
  url: string;
  kind: CredentialKind;
  appKey?: string;
  principal?: string;
  /** The SecretBox's output, base64. */
  sealedSecret?: string;
}

interface StoreFile {
  version: 1;
  connections: StoredConnection[];
  /** The connection the console was talking to when last changed; absent: this computer. */
  active?: string;
}

export class ConnectionsStore {
  constructor(
    private readonly file: string,
    private readonly box: SecretBox,
    private readonly newId: () => string = () => randomUUID(),
  ) {}

  list(): ConnectionInfo[] {
    return this.read().connections.map(toInfo);
  }

  get(id: string): ConnectionInfo | undefined {
    const found = this.read().connections.find((c) => c.id === id);
    return found ? toInfo(found) : undefined;
  }

  /** Adds or replaces; on an edit without a secret the stored one stays (same kind only). */
  save(draft: ConnectionDraft): ConnectionInfo {
    const data = this.read();
    const previous = draft.id === undefined ? undefined : data.connections.find((c) => c.id === draft.id);
    if (draft.id !== undefined && previous === undefined) throw new ConnectionNotFoundError(draft.id);
    const stored: StoredConnection = {
      id: previous?.id ?? this.newId(),
      name: draft.name,
      url: draft.url,
      kind: draft.kind,
    };
    if (draft.appKey !== undefined) stored.appKey = draft.appKey;
    if (draft.principal !== undefined) stored.principal = draft.principal;
    if (draft.kind !== 'session') {
      if (draft.secret !== undefined) {
        if (!this.box.isAvailable()) throw new SecretStorageUnavailableError();
        stored.sealedSecret = this.box.encrypt(draft.secret).toString('base64');
      } else if (previous?.sealedSecret !== undefined && previous.kind === draft.kind && previous.url === draft.url) {
        // The secret belongs to that remote: moving it to another URL would send it somewhere new.
        stored.sealedSecret = previous.sealedSecret;
      }
    }
    const connections = previous
      ? data.connections.map((c) => (c.id === stored.id ? stored : c))
      : [...data.connections, stored];
    this.write({ ...data, connections });
    return toInfo(stored);
  }

  remove(id: string): void {
    const data = this.read();
    const connections = data.connections.filter((c) => c.id !== id);
    if (connections.length === data.connections.length) throw new ConnectionNotFoundError(id);
    this.write({ ...data, connections, ...(data.active === id ? { active: undefined } : {}) });
  }

  /** The saved connection to reconnect to at the next start, if it still exists. */
  activeId(): string | undefined {
    const data = this.read();
    return data.connections.some((c) => c.id === data.active) ? data.active : undefined;
  }

  /** Remembers the active connection for the next start (`undefined`: this computer). */
  rememberActive(id: string | undefined): void {
    const data = this.read();
    if (id !== undefined && !data.connections.some((c) => c.id === id)) throw new ConnectionNotFoundError(id);
    this.write({ ...data, active: id });
  }

  /** What the gateway needs to talk to `id`, secret unsealed; throws when it cannot be complete. */
  target(id: string): GatewayTarget {
    const found = this.read().connections.find((c) => c.id === id);
    if (!found) throw new ConnectionNotFoundError(id);
    if (found.kind === 'session') return { kind: 'session', origin: found.url };
    if (found.sealedSecret === undefined) throw new Error(`The connection "${found.name}" has no stored secret.`);
    if (!this.box.isAvailable()) throw new SecretStorageUnavailableError('opening');
    const secret = this.box.decrypt(Buffer.from(found.sealedSecret, 'base64'));
    if (found.kind === 'token') return { kind: 'token', origin: found.url, token: secret };
    const target: GatewayTarget = { kind: 'signing', origin: found.url, appKey: found.appKey ?? '', secret };
    if (found.principal !== undefined) target.principal = found.principal;
    return target;
  }

  private read(): StoreFile {
    if (!existsSync(this.file)) return { version: 1, connections: [] };
    const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<StoreFile>;
    return {
      version: 1,
      connections: Array.isArray(parsed.connections) ? parsed.connections : [],
      ...(typeof parsed.active === 'string' ? { active: parsed.active } : {}),
    };
  }

  /** Whole file through a temporary one and a rename: a crash leaves the old list or the new one. */
  private write(data: StoreFile): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

function toInfo(stored: StoredConnection): ConnectionInfo {
  const info: ConnectionInfo = {
    id: stored.id,
    name: stored.name,
    url: stored.url,
    kind: stored.kind,
    hasSecret: stored.sealedSecret !== undefined,
  };
  if (stored.appKey !== undefined) info.appKey = stored.appKey;
  if (stored.principal !== undefined) info.principal = stored.principal;
  return info;
}
