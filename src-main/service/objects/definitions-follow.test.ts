/**
 * Issue #13 item 11: cached object definitions follow the data version. A second process adds a
 * property to the account definition while the service runs; the service sees it at once.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

/** Another operating-system process writing to the same database file (as the admin CLI would). */
function addPropertyFromAnotherProcess(dataDir: string): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.prepare("UPDATE object_defs SET def = json_insert(def, '$.properties[#]', json(?)) WHERE name = 'account'")
      .run(JSON.stringify({ name: 'nickname', type: 'String', maxLength: 40 }));
    db.close();`;
  const run = spawnSync(process.execPath, ['-e', script, join(dataDir, 'service.db')], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

describe('object definitions across processes', () => {
  it('a property added by another process is seen by the running service', async () => {
    const admin = new TestClient(h);
    await admin.login();
    const me = (await admin.get('/accounts/me')).json()._id as string;
    const before = await admin.patch(`/accounts/${me}`, { nickname: 'Ace' });
    expect(before.statusCode).toBe(400);

    addPropertyFromAnotherProcess(h.dataDir);
    await new Promise((r) => setTimeout(r, 20)); // past the data version's staleness bound (1 ms)

    const after = await admin.patch(`/accounts/${me}`, { nickname: 'Ace' });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().nickname).toBe('Ace');
  });

  it('keeps the same definition object while nothing about the definitions changed', async () => {
    const first = h.svc.defs.byName(1, 'account');
    const admin = new TestClient(h);
    await admin.login(); // writes (a session), which moves the data version
    expect(h.svc.defs.byName(1, 'account')).toBe(first);
  });
});
