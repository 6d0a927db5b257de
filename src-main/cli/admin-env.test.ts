import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { CliError } from './args.js';
import { runEnvCommand, runOrgCreate } from './admin-env.js';

let dataDir: string;
let svc: Service;
let demo: Org;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-env-'));
  svc = openService({ dataDir, masterKey: randomBytes(32) });
  ({ org: demo } = await bootstrapOrg(svc, {
    code: 'demo',
    adminEmail: 'admin@example.test',
    adminPassword: 'pw pw pw pw pw',
  }));
});
afterEach(() => {
  svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const create = ['--admin-email', 'a@b.test', '--admin-password', 'a long password'];

describe('org create', () => {
  it('creates a second org in the same data folder', async () => {
    expect(await runOrgCreate(svc, ['--code', 'clinic', ...create])).toMatchObject({ code: 'clinic' });
    expect(svc.orgs.list().map((o) => o.code)).toEqual(['demo', 'clinic']);
    await expect(runOrgCreate(svc, ['--code', 'clinic', ...create])).rejects.toThrow(/exists/);
    await expect(runOrgCreate(svc, ['--code', 'x'])).rejects.toBeInstanceOf(CliError);
  });
});

describe('env export / import', () => {
  it('exports to a file and imports it elsewhere, with a dry run that prints the changes and writes nothing', async () => {
    const roleDef = svc.defs.byName(demo.id, 'role')!;
    svc.store.insert(demo.id, roleDef, { name: 'Auditor', code: 'auditor', scopes: ['object.read'] });
    const manifest = join(dataDir, 'm.json');
    writeFileSync(
      manifest,
      JSON.stringify({ roles: { includes: ['auditor'] }, objects: { includes: ['c_conversation'] } }),
    );
    const out = join(dataDir, 'demo.ndjson');
    expect(await runEnvCommand(svc, demo, ['export', '--manifest', manifest, '--out', out])).toMatchObject({
      resources: 2,
    });
    expect(readFileSync(out, 'utf8')).toContain('"resource":"role.auditor"');

    await runOrgCreate(svc, ['--code', 'clinic', ...create]);
    const clinic = svc.orgs.byCode('clinic')!;
    const printed: string[] = [];
    const dry = await runEnvCommand(svc, clinic, ['import', '--in', out, '--dry-run'], (t) => printed.push(t));
    expect(dry).toMatchObject({ dryRun: true, added: 1, unchanged: 1, changed: 0 });
    expect(printed.join('')).toContain('added    role.auditor');
    const codes = () =>
      [...svc.store.iterate(clinic.id, roleDef, { sort: [], skip: 0, limit: 1 })].map((r) => r.doc.code);
    expect(codes()).not.toContain('auditor');
    expect(await runEnvCommand(svc, clinic, ['import', '--in', out], () => undefined)).toMatchObject({ added: 1 });
    expect(codes()).toContain('auditor');
    await expect(runEnvCommand(svc, clinic, ['import'])).rejects.toThrow(/usage: env import/);
  });

  it('leaves the planner statistics describing the tables as they are after the import', async () => {
    const roleDef = svc.defs.byName(demo.id, 'role')!;
    const table = svc.store.table(demo.id, roleDef);
    const statRows = () =>
      Number(
        (svc.db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ?').get(table) as { stat: string }).stat.split(
          ' ',
        )[0],
      );
    svc.db.exec('ANALYZE');
    const before = statRows();
    for (let i = 0; i < 30 * before; i++) svc.store.insert(demo.id, roleDef, { name: `Role ${i}`, code: `role_${i}` });
    const out = join(dataDir, 'demo.ndjson');
    writeFileSync(join(dataDir, 'm.json'), JSON.stringify({ roles: { includes: ['role_0'] } }));
    await runEnvCommand(svc, demo, ['export', '--manifest', join(dataDir, 'm.json'), '--out', out]);
    expect(statRows()).toBe(before);
    await runEnvCommand(svc, demo, ['import', '--in', out], () => undefined);
    expect(statRows()).toBe(svc.store.count(demo.id, roleDef));
  });
});

describe('env import of trigger and job scripts (issue 41)', () => {
  it('carries them to another org, and refuses one whose event or schedule would never run', async () => {
    const scriptDef = svc.defs.byName(demo.id, 'script')!;
    const trigger = { object: 'c_conversation', event: 'update.after' };
    svc.store.insert(demo.id, scriptDef, {
      name: 'c_watch',
      label: 'Watch',
      type: 'trigger',
      active: true,
      script: 'return true',
      configuration: trigger,
    });
    svc.store.insert(demo.id, scriptDef, {
      name: 'c_hourly',
      label: 'Hourly',
      type: 'job',
      active: true,
      script: 'return 1',
      configuration: { cron: '0 * * * *' },
    });
    const manifest = join(dataDir, 'm.json');
    writeFileSync(manifest, JSON.stringify({ scripts: { includes: ['c_watch', 'c_hourly'] } }));
    const out = join(dataDir, 'demo.ndjson');
    await runEnvCommand(svc, demo, ['export', '--manifest', manifest, '--out', out]);
    await runOrgCreate(svc, ['--code', 'clinic', ...create]);
    const clinic = svc.orgs.byCode('clinic')!;
    const spoiled = join(dataDir, 'spoiled.ndjson');
    writeFileSync(spoiled, readFileSync(out, 'utf8').replace('"update.after"', '"update.later"'));
    const refused: unknown = await runEnvCommand(svc, clinic, ['import', '--in', spoiled], () => undefined).catch(
      (e: unknown) => e,
    );
    expect(String(refused)).toMatch(/A trigger's event is one of/);
    expect(await runEnvCommand(svc, clinic, ['import', '--in', out], () => undefined)).toMatchObject({ added: 2 });
    const stored = [
      ...svc.store.iterate(clinic.id, svc.defs.byName(clinic.id, 'script')!, { sort: [], skip: 0, limit: 10 }),
    ];
    expect(stored.map((r) => [r.doc.name, r.doc.configuration])).toEqual(
      expect.arrayContaining([
        ['c_watch', trigger],
        ['c_hourly', { cron: '0 * * * *' }],
      ]),
    );
  });
});
