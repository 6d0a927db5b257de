/** Orgs made before issue 41 get the script type's `trigger` value and trigger/job options when the service opens. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../open-service.js';
import { bootstrapOrg } from '../bootstrap.js';

let dataDir: string;
const masterKey = randomBytes(32);
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'script-upgrade-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the script type of an older org', () => {
  it('gains the trigger type and the trigger and job options, keeping what an administrator added', async () => {
    const svc = openService({ dataDir, masterKey });
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    const def = svc.defs.byName(org.id, 'script')!;
    const old = structuredClone(def);
    old.properties.find((p) => p.name === 'type')!.enum = ['route', 'library', 'job'];
    const config = old.properties.find((p) => p.name === 'configuration')!;
    config.properties = config.properties!.filter((p) => !['object', 'event', 'inline', 'cron'].includes(p.name));
    old.properties.push({ name: 'c_owner_team', type: 'String', custom: true });
    svc.defs.save(org.id, old);
    svc.close();
    const reopened = openService({ dataDir, masterKey });
    try {
      const now = reopened.defs.byName(org.id, 'script')!;
      expect(now.properties.find((p) => p.name === 'type')!.enum).toEqual(['route', 'library', 'job', 'trigger']);
      const names = now.properties.find((p) => p.name === 'configuration')!.properties!.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['object', 'event', 'inline', 'cron', 'method', 'path']));
      expect(now.properties.map((p) => p.name)).toContain('c_owner_team');
    } finally {
      reopened.close();
    }
  });
});
