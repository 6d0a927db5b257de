import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createHarness, type Harness } from '../testing/harness.js';
import { openService } from '../open-service.js';

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

  it('patch the stored settings, not a stale copy', () => {
    const stale = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(stale, { lockAttempts: 7 });
    const after = h.svc.orgs.updateSettings(stale, { verifyNewLocations: true });
    expect(after.settings).toMatchObject({ lockAttempts: 7, verifyNewLocations: true });
  });
});
