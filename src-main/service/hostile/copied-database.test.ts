/**
 * A copied database file (a stolen backup, a synced folder): without the master key, which lives
 * outside the database, it must yield no app secret, no private key and no password.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../testing/harness.js';
import { hostileWorld, type HostileWorld } from './fixture.js';

let w: HostileWorld;
let file: Buffer;
beforeAll(async () => {
  w = await hostileWorld();
  // Everything on disk: checkpoint the WAL into the main file, then read raw bytes.
  w.h.svc.db.pragma('wal_checkpoint(TRUNCATE)');
  file = readFileSync(join(w.h.dataDir, 'service.db'));
});
afterAll(async () => w.h.close());

describe('a copy of service.db', () => {
  it('holds no signing secret in clear', () => {
    expect(w.signing.secret).toHaveLength(64);
    expect(file.includes(w.signing.secret)).toBe(false);
  });

  it('holds no RSA private key in clear', () => {
    expect(file.includes('PRIVATE KEY')).toBe(false);
    const pem = w.h.svc.apps.currentKey(w.h.svc.apps.byKey(w.h.consoleAppKey)!.id)!.privatePem;
    const body = pem.split('\n')[1]!; // one base64 line of the key
    expect(file.includes(body)).toBe(false);
  });

  it('holds passwords only as memory-hard hashes', () => {
    expect(file.includes(ADMIN_PASSWORD)).toBe(false);
    const { password_hash } = w.h.svc.db.prepare('SELECT password_hash FROM credentials LIMIT 1').get() as {
      password_hash: string;
    };
    expect(password_hash).toMatch(/^(scrypt|\$scrypt|\$argon2)/i);
  });

  it('keeps the master key out of the database', () => {
    expect(w.h.svc.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE sql LIKE '%master%'").get()).toEqual({
      n: 0,
    });
  });
});
