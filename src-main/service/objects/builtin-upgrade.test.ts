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
  dataDir = mkdtempSync(join(tmpdir(), 'builtin-upgrade-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('built-in types added after an org was made', () => {
  it('are added to existing orgs when the service opens', async () => {
    const svc = openService({ dataDir, masterKey });
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    // an org from before views and deployments existed
    svc.defs.remove(org.id, 'view');
    svc.defs.remove(org.id, 'deployment');
    svc.close();
    const reopened = openService({ dataDir, masterKey });
    try {
      expect(reopened.defs.byName(org.id, 'view')?.collection).toBe('views');
      expect(reopened.defs.byName(org.id, 'deployment')?.collection).toBe('deployments');
    } finally {
      reopened.close();
    }
  });

  it('adds built-in properties added since to an existing built-in type, keeping custom ones', async () => {
    const svc = openService({ dataDir, masterKey });
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    const def = svc.defs.byName(org.id, 'deployment')!;
    // a deployment type from before targets in other folders or services
    svc.defs.save(org.id, {
      ...def,
      properties: [
        ...def.properties.filter((p) => !p.name.startsWith('target') || p.name === 'targetOrg'),
        { name: 'c_note', type: 'String', custom: true },
      ],
    });
    expect(svc.defs.byName(org.id, 'deployment')!.properties.map((p) => p.name)).not.toContain('targetUrl');
    svc.close();
    const reopened = openService({ dataDir, masterKey });
    try {
      const names = reopened.defs.byName(org.id, 'deployment')!.properties.map((p) => p.name);
      expect(names).toEqual(
        expect.arrayContaining(['targetKind', 'targetDataDir', 'targetUrl', 'targetSecret', 'c_note']),
      );
      expect(
        reopened.defs.byName(org.id, 'deployment')!.properties.find((p) => p.name === 'targetSecret')?.hidden,
      ).toBe(true);
    } finally {
      reopened.close();
    }
  });

  it("give an older org's account key.fingerprint the UUID format and email the email format", async () => {
    const svc = openService({ dataDir, masterKey });
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    const old = structuredClone(svc.defs.byName(org.id, 'account')!);
    const fingerprint = old.properties
      .find((p) => p.name === 'key')!
      .properties!.find((p) => p.name === 'fingerprint')!;
    delete fingerprint.format;
    fingerprint.maxLength = 64;
    delete old.properties.find((p) => p.name === 'email')!.format;
    svc.defs.save(org.id, old);
    svc.close();
    const reopened = openService({ dataDir, masterKey });
    try {
      const account = reopened.defs.byName(org.id, 'account')!;
      const key = account.properties.find((p) => p.name === 'key')!;
      expect(key.properties!.find((p) => p.name === 'fingerprint')).toMatchObject({ format: 'uuid', maxLength: 36 });
      expect(account.properties.find((p) => p.name === 'email')).toMatchObject({ format: 'email' });
    } finally {
      reopened.close();
    }
  });

  it("gives a script's stored configuration.acl the aclEntry format (the original's {type, target})", async () => {
    const svc = openService({ dataDir, masterKey });
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    const def = structuredClone(svc.defs.byName(org.id, 'script')!);
    const acl = () =>
      def.properties.find((p) => p.name === 'configuration')!.properties!.find((p) => p.name === 'acl')!;
    delete acl().format;
    svc.defs.save(org.id, def);
    svc.close();
    const reopened = openService({ dataDir, masterKey });
    try {
      const stored = reopened.defs.byName(org.id, 'script')!;
      const configuration = stored.properties.find((p) => p.name === 'configuration')!;
      expect(configuration.properties!.find((p) => p.name === 'acl')?.format).toBe('aclEntry');
    } finally {
      reopened.close();
    }
  });
});
