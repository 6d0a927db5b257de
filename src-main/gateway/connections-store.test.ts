import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionsStore, SecretStorageUnavailableError, type SecretBox } from './connections-store.js';

/** Stands in for safeStorage: reversible, and visibly not the clear text. */
function fakeBox(available = true): SecretBox & { available: boolean } {
  const box = {
    available,
    isAvailable: () => box.available,
    encrypt: (plain: string) => Buffer.from([...Buffer.from(plain)].map((b) => b ^ 0x5a)),
    decrypt: (sealed: Buffer) => Buffer.from([...sealed].map((b) => b ^ 0x5a)).toString(),
  };
  return box;
}

const TOKEN = 'eyJhbGciOiJQUzUxMiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXRleHQ';
const SECRET = 'a'.repeat(40) + 'SECRETSECRET';
let dir: string;
let file: string;
let ids: number;
const store = (box: SecretBox = fakeBox()) => new ConnectionsStore(file, box, () => `conn-${++ids}`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'connections-'));
  file = join(dir, 'user', 'connections.json');
  ids = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('saved connections', () => {
  it('keeps token and signing secrets only sealed: the file never holds them in clear', () => {
    const s = store();
    s.save({ name: 'Staging', url: 'http://10.0.0.5:7788', kind: 'token', secret: TOKEN });
    s.save({ name: 'Backend', url: 'https://svc.example', kind: 'signing', appKey: 'app-key-1', secret: SECRET });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Staging');
    expect(text).toContain('app-key-1');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('SECRETSECRET');
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('lists without secrets and unseals them only as a gateway target', () => {
    const s = store();
    const saved = s.save({
      name: 'Backend',
      url: 'https://svc.example',
      kind: 'signing',
      appKey: 'k',
      principal: 'a@b.c',
      secret: SECRET,
    });
    expect(saved).toEqual({
      id: 'conn-1',
      name: 'Backend',
      url: 'https://svc.example',
      kind: 'signing',
      appKey: 'k',
      principal: 'a@b.c',
      hasSecret: true,
    });
    expect(JSON.stringify(s.list())).not.toContain(SECRET);
    expect(s.target('conn-1')).toEqual({
      kind: 'signing',
      origin: 'https://svc.example',
      appKey: 'k',
      secret: SECRET,
      principal: 'a@b.c',
    });
  });

  it('a session connection stores no secret; its target is the remote alone', () => {
    const s = store();
    s.save({ name: 'Laptop', url: 'http://127.0.0.1:9000', kind: 'session' });
    expect(s.list()).toEqual([
      { id: 'conn-1', name: 'Laptop', url: 'http://127.0.0.1:9000', kind: 'session', hasSecret: false },
    ]);
    expect(s.target('conn-1')).toEqual({ kind: 'session', origin: 'http://127.0.0.1:9000' });
  });

  it('refuses to store a secret when the OS offers no protected storage, and writes nothing', () => {
    const s = store(fakeBox(false));
    expect(() => s.save({ name: 'X', url: 'http://h:1', kind: 'token', secret: TOKEN })).toThrow(
      SecretStorageUnavailableError,
    );
    expect(s.list()).toEqual([]);
  });

  it('an edit without a secret keeps the stored one, but not when the URL changes', () => {
    const s = store();
    s.save({ name: 'T', url: 'http://h:1', kind: 'token', secret: TOKEN });
    s.save({ id: 'conn-1', name: 'T renamed', url: 'http://h:1', kind: 'token' });
    expect(s.target('conn-1')).toMatchObject({ token: TOKEN });
    s.save({ id: 'conn-1', name: 'T moved', url: 'http://elsewhere:1', kind: 'token' });
    expect(s.get('conn-1')?.hasSecret).toBe(false);
    expect(() => s.target('conn-1')).toThrow(/no stored secret/);
  });

  it('removes a connection, and refuses unknown ids', () => {
    const s = store();
    s.save({ name: 'A', url: 'http://h:1', kind: 'session' });
    s.save({ name: 'B', url: 'http://h:2', kind: 'session' });
    s.remove('conn-1');
    expect(s.list().map((c) => c.name)).toEqual(['B']);
    expect(() => s.remove('conn-1')).toThrow(/No saved connection/);
    expect(() => s.save({ id: 'conn-9', name: 'C', url: 'http://h:3', kind: 'session' })).toThrow(
      /No saved connection/,
    );
  });
});
