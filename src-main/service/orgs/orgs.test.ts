import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createHarness, type Harness } from '../testing/harness.js';
import { DB_FILE, openService } from '../open-service.js';
import Database from 'better-sqlite3';
import { runMigrations } from '../db/migrate.js';
import { MIGRATIONS } from '../db/migrations.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('org settings', () => {
  it('changed by another process (the admin CLI) are seen by a running service within a millisecond', async () => {
    expect(h.svc.orgs.byCode('demo')!.settings.lockAttempts).toBe(5);
    const cli = openService({ dataDir: h.dataDir, masterKey: randomBytes(32) });
    try {
      cli.orgs.updateSettings(cli.orgs.byCode('demo')!, { lockAttempts: 3 });
    } finally {
      cli.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // past the caches' staleness bound (1 ms)
    expect(h.svc.orgs.byCode('demo')!.settings.lockAttempts).toBe(3);
  });

  it('computed from the stored settings are computed under the write lock, so no other writer comes between', () => {
    const stale = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(stale, { scriptCounters: { runs: 1 } });
    const other = new Database(join(h.dataDir, DB_FILE), { timeout: 0 });
    let otherWrite: unknown;
    try {
      const after = h.svc.orgs.updateSettings(stale, (stored) => {
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec('ROLLBACK');
        } catch (e) {
          otherWrite = e;
        }
        return { scriptCounters: { runs: (stored.scriptCounters?.runs ?? 0) + 1 } };
      });
      expect(after.settings.scriptCounters).toEqual({ runs: 2 });
    } finally {
      other.close();
    }
    expect(otherWrite).toMatchObject({ code: 'SQLITE_BUSY' });
  });

  it('computed from the stored settings write nothing when the patch is nothing or throws', () => {
    const org = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(org, { lockAttempts: 4 });
    expect(h.svc.orgs.updateSettings(org, () => undefined).settings.lockAttempts).toBe(4);
    expect(() =>
      h.svc.orgs.updateSettings(org, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(h.svc.orgs.byId(org.id)!.settings.lockAttempts).toBe(4);
  });

  it('patch the stored settings, not a stale copy', () => {
    const stale = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(stale, { lockAttempts: 7 });
    const after = h.svc.orgs.updateSettings(stale, { verifyNewLocations: true });
    expect(after.settings).toMatchObject({ lockAttempts: 7, verifyNewLocations: true });
  });
});

describe('the operator org (docs/orgs-and-apps.md)', () => {
  it('is the org created first, whichever orgs come after', async () => {
    const demo = h.svc.orgs.byCode('demo')!;
    expect(h.svc.orgs.operatorOrgId()).toBe(demo.id);
    h.svc.orgs.create('later', 'Later', h.svc.nowIso());
    expect(h.svc.orgs.operatorOrgId()).toBe(demo.id);
  });

  it('is recorded for a folder made before it was, as its first org', () => {
    const db = new Database(':memory:');
    runMigrations(db, MIGRATIONS.slice(0, 9));
    const insert = db.prepare("INSERT INTO orgs (code, name, settings, created) VALUES (?, ?, '{}', '')");
    for (const code of ['first', 'second']) insert.run(code, code);
    runMigrations(db, MIGRATIONS);
    expect(db.prepare("SELECT value FROM service_settings WHERE key = 'operatorOrg'").get()).toEqual({ value: '1' });
    // …and for a folder with no org yet, by the first org created (orgs.ts create).
    const empty = new Database(':memory:');
    runMigrations(empty, MIGRATIONS);
    expect(empty.prepare('SELECT count(*) AS n FROM service_settings').get()).toEqual({ n: 0 });
  });
});
