/** Issue 41: what the admin command line changes leaves an audit entry naming the command line. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { runOrgCommand } from './admin-commands.js';

let dataDir: string;
let svc: Service;
let org: Org;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-audit-'));
  svc = openService({ dataDir, masterKey: randomBytes(32) });
  ({ org } = await bootstrapOrg(svc, {
    code: 'demo',
    adminEmail: 'admin@example.test',
    adminPassword: 'pw pw pw pw pw',
  }));
});
afterEach(() => {
  svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('org set', () => {
  it('is audited as the command line, with the setting and its new value (settings hold no secret)', async () => {
    await runOrgCommand(svc, org, ['set', 'auditRetentionDays', '400']);
    const def = svc.defs.byName(org.id, 'audit')!;
    const entries = [...svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })].map((r) => r.doc);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      cat: 'settings',
      sub: 'set',
      actor: { type: 'cli' },
      context: { object: 'org', _id: 'demo' },
      changes: ['auditRetentionDays'],
      summary: 'Set auditRetentionDays to 400 (command line).',
    });
  });
});
