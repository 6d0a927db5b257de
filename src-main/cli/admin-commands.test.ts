import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { BUILTIN_ROLES } from '../service/objects/builtin-defs.js';
import { verifyPassword } from '../service/accounts/password.js';
import { parseListQuery } from '../../src-shared/query/parse.js';
import { CliError } from './args.js';
import { runAccountCommand, runAppCommand, runOrgCommand } from './admin-commands.js';

let dataDir: string;
let svc: Service;
let org: Org;
let consoleAppKey: string;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-admin-'));
  svc = openService({ dataDir, masterKey: randomBytes(32) });
  ({ org, consoleAppKey } = await bootstrapOrg(svc, {
    code: 'demo',
    adminEmail: 'admin@example.test',
    adminPassword: 'pw pw pw pw pw',
  }));
});
afterEach(() => {
  svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type PrintedApp = { key: string; kind: string; secret: string | null; rsa: { kid: string }; [k: string]: unknown };

async function expectCliError(run: Promise<unknown>, message: RegExp) {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  expect((err as Error).message).toMatch(message);
}

describe('app', () => {
  it('creates a signing app and prints its key and secret in full', async () => {
    const app = (await runAppCommand(svc, org, [
      'create',
      '--label',
      'Lab system',
      '--signing',
      '--principal-override',
      '--expose',
    ])) as PrintedApp;
    expect(app).toMatchObject({
      object: 'app',
      kind: 'signing',
      label: 'Lab system',
      principalOverride: true,
      expose: true,
    });
    expect(app.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(svc.apps.secret(svc.apps.byKey(app.key)!)).toBe(app.secret);
    expect(JSON.stringify(app)).not.toMatch(/PRIVATE|"v1\./);
  });

  it('creates a session app by default, and refuses signing-only flags on it', async () => {
    expect(await runAppCommand(svc, org, ['create', '--label', 'Web'])).toMatchObject({
      kind: 'session',
      secret: null,
    });
    await expectCliError(
      runAppCommand(svc, org, ['create', '--label', 'Web', '--principal-override']),
      /principalOverride: principalOverride applies to signing apps only/,
    );
  });

  it('lists apps with secrets masked', async () => {
    const created = (await runAppCommand(svc, org, ['create', '--label', 'x', '--signing'])) as PrintedApp;
    const list = (await runAppCommand(svc, org, ['list'])) as PrintedApp[];
    expect(list.map((a) => a.key)).toEqual([consoleAppKey, created.key]);
    expect(list[1]!.secret).toBe(`••••…${created.secret!.slice(-4)}`);
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it('rotates the secret of a signing app', async () => {
    const created = (await runAppCommand(svc, org, ['create', '--label', 'x', '--signing'])) as PrintedApp;
    const rotated = (await runAppCommand(svc, org, ['rotate-secret', '--key', created.key])) as PrintedApp;
    expect(rotated.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(rotated.secret).not.toBe(created.secret);
    await expectCliError(runAppCommand(svc, org, ['rotate-secret', '--key', consoleAppKey]), /only signing apps/);
  });

  it('regenerates the RSA pair', async () => {
    const created = (await runAppCommand(svc, org, ['create', '--label', 'x'])) as PrintedApp;
    const after = (await runAppCommand(svc, org, ['regenerate-rsa', '--key', created.key])) as PrintedApp;
    expect(after.rsa.kid).not.toBe(created.rsa.kid);
    expect(svc.apps.currentKeyInfo(svc.apps.byKey(created.key)!.id)?.kid).toBe(after.rsa.kid);
  });

  it('refuses bad input with clear messages', async () => {
    await expectCliError(runAppCommand(svc, org, ['create']), /--label is required/);
    await expectCliError(runAppCommand(svc, org, ['create', '--label', ' ']), /label must be 1–100 characters/);
    await expectCliError(runAppCommand(svc, org, ['create', '--label', 'x', '--bogus']), /bogus/);
    await expectCliError(runAppCommand(svc, org, ['rotate-secret']), /--key is required/);
    await expectCliError(runAppCommand(svc, org, ['regenerate-rsa', '--key', 'nope']), /no app with key nope/);
    await expectCliError(runAppCommand(svc, org, ['delete']), /unknown app command delete/);
    await expectCliError(runAppCommand(svc, org, []), /unknown app command/);
  });

  it('does not touch apps of another org', async () => {
    const other = await bootstrapOrg(svc, {
      code: 'other',
      adminEmail: 'o@example.test',
      adminPassword: 'pw pw pw pw pw',
    });
    await expectCliError(runAppCommand(svc, org, ['rotate-secret', '--key', other.consoleAppKey]), /no app with key/);
  });
});

describe('account', () => {
  it('creates a verified account with a built-in role, hashing the password', async () => {
    const account = (await runAccountCommand(svc, org, [
      'create',
      '--email',
      'Dev@Example.test',
      '--password',
      'a long password 1',
      '--role',
      'developer',
    ])) as { _id: string; email: string; roles: string[]; state: string };
    expect(account).toMatchObject({ email: 'dev@example.test', roles: [BUILTIN_ROLES.developer], state: 'verified' });
    expect(JSON.stringify(account)).not.toContain('a long password 1');
    const cred = svc.credentials.byEmail(org.id, 'dev@example.test')!;
    expect(cred.account_id).toBe(account._id);
    expect(await verifyPassword('a long password 1', cred.password_hash)).toBe(true);
    // Created through the records service: its audit entry names the command line.
    const auditDef = svc.defs.byName(org.id, 'audit')!;
    const audits = svc.store.list(org.id, auditDef, parseListQuery({ limit: '100' }, auditDef)).rows;
    expect(audits.map((a) => a.doc)).toContainEqual(
      expect.objectContaining({
        cat: 'account',
        sub: 'create',
        context: expect.objectContaining({ _id: account._id }),
      }),
    );
  });

  it('accepts a role id of the org, and no role at all', async () => {
    const a = await runAccountCommand(svc, org, [
      'create',
      '--email',
      'a@example.test',
      '--password',
      'a long password 1',
      '--role',
      BUILTIN_ROLES.support,
    ]);
    expect(a).toMatchObject({ roles: [BUILTIN_ROLES.support] });
    const b = await runAccountCommand(svc, org, [
      'create',
      '--email',
      'b@example.test',
      '--password',
      'a long password 1',
    ]);
    expect(b).toMatchObject({ roles: [] });
  });

  it('refuses bad input', async () => {
    const pw = ['--password', 'a long password 1'];
    await expectCliError(runAccountCommand(svc, org, ['create', ...pw]), /--email and --password are required/);
    await expectCliError(
      runAccountCommand(svc, org, ['create', '--email', 'x@example.test', ...pw, '--role', 'superuser']),
      /--role must be administrator, provider, support, developer/,
    );
    await expectCliError(
      runAccountCommand(svc, org, ['create', '--email', 'x@example.test', ...pw, '--role', 'f'.repeat(24)]),
      /--role must be/,
    );
    await expectCliError(
      runAccountCommand(svc, org, ['create', '--email', 'x@example.test', '--password', 'short']),
      /at least 8 characters/,
    );
    await expectCliError(
      runAccountCommand(svc, org, ['create', '--email', 'admin@example.test', ...pw]),
      /already exists/,
    );
    await expectCliError(runAccountCommand(svc, org, ['remove']), /unknown account command remove/);
  });
});

describe('org set', () => {
  it('sets numbers and booleans', async () => {
    expect(await runOrgCommand(svc, org, ['set', 'lockAttempts', '3'])).toMatchObject({ lockAttempts: 3 });
    expect(await runOrgCommand(svc, org, ['set', 'lockDuration', '0'])).toMatchObject({ lockDuration: 0 });
    expect(await runOrgCommand(svc, org, ['set', 'allowSimultaneousLogins', 'true'])).toMatchObject({
      allowSimultaneousLogins: true,
    });
    await runOrgCommand(svc, svc.orgs.byCode('demo')!, ['set', 'disableNegation', 'true']);
    expect(svc.orgs.byCode('demo')!.settings).toMatchObject({
      lockAttempts: 3,
      lockDuration: 0,
      allowSimultaneousLogins: true,
      disableNegation: true,
      consoleAppKey,
    });
  });

  it('refuses unknown keys and bad values', async () => {
    await expectCliError(runOrgCommand(svc, org, ['set', 'consoleAppKey', 'x']), /unknown setting consoleAppKey/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'nope', '1']), /unknown setting nope/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'lockAttempts', '0']), /integer 1–1000/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'lockAttempts', '2.5']), /integer/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'lockDuration', '-1']), /integer/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'disableNegation', 'yes']), /true or false/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'lockAttempts']), /usage: org set KEY VALUE/);
    await expectCliError(runOrgCommand(svc, org, ['get', 'lockAttempts']), /unknown org command get/);
    expect(svc.orgs.byCode('demo')!.settings.lockAttempts).toBe(5);
  });

  it('sets the org cap on job runs, a sandbox limit only the operator sets, within its floor and ceiling', async () => {
    svc.orgs.updateSettings(org, { scriptLimits: { timeoutMs: 2000 } });
    expect(await runOrgCommand(svc, org, ['set', 'maxJobRunsPerDay', '500'])).toMatchObject({
      scriptLimits: { timeoutMs: 2000, maxJobRunsPerDay: 500 },
    });
    await expectCliError(runOrgCommand(svc, org, ['set', 'maxJobRunsPerDay', '10']), /integer 24–100000/);
    await expectCliError(runOrgCommand(svc, org, ['set', 'maxJobRunsPerDay', '1000000']), /integer 24–100000/);
    expect(svc.orgs.byCode('demo')!.settings.scriptLimits).toEqual({ timeoutMs: 2000, maxJobRunsPerDay: 500 });
  });
});
