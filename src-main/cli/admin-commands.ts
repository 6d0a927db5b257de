import { parseArgs, type ParseArgsConfig } from 'node:util';
import { recordAudit } from '../service/audit/record.js';
import { CLI_ACTOR } from '../service/audit/actor.js';
import { FaultError } from '../../src-shared/faults.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import {
  DEFAULT_ORG_SETTINGS,
  SETTABLE_ORG_SETTINGS,
  validateOrgSettings,
  type OrgSettings,
} from '../service/orgs/settings.js';
import type { App, AppSettings } from '../service/apps/apps.js';
import { validateAppSettings } from '../service/apps/settings.js';
import { presentApp } from '../service/apps/present.js';
import { accountDef, prepareAccount } from '../service/accounts/accounts.js';
import { createAccountTriggered } from '../service/records/triggered-writes.js';
import { presentRecord } from '../service/objects/present.js';
import { BUILTIN_ROLES } from '../service/objects/builtin-defs.js';
import { CliError } from './args.js';
import { withJobRunsPerDay } from '../service/scripting/org-limits.js';

/**
 * `admin app …`, `admin account …`, `admin org …`. Each returns what to print as JSON. Trust
 * boundary: argv comes from whoever runs the CLI on this machine; it is parsed strictly and every
 * value goes through the same validation as the HTTP API. Bad input throws CliError.
 */

export async function runAppCommand(svc: Service, org: Org, args: string[]): Promise<unknown> {
  const [sub, ...rest] = args;
  return cliFaults(async () => {
    switch (sub) {
      case 'create': {
        const { values } = parse(rest, {
          label: { type: 'string' },
          signing: { type: 'boolean', default: false },
          'principal-override': { type: 'boolean', default: false },
          expose: { type: 'boolean', default: false },
        });
        if (typeof values.label !== 'string') throw new CliError('app create: --label is required');
        const kind = values.signing ? 'signing' : 'session';
        const settings = validateAppSettings(
          {
            label: values.label,
            expose: values.expose,
            ...(values['principal-override'] ? { principalOverride: true } : {}),
          },
          kind,
        ) as Partial<AppSettings> & { label: string };
        const { app, secret } = await svc.apps.create(org.id, kind, settings, svc.nowIso());
        // The one place the CLI prints a secret: the operator asked to create it.
        return presentApp(svc.apps, app, secret);
      }
      case 'list':
        parse(rest, {});
        return svc.apps.list(org.id).map((a) => presentApp(svc.apps, a));
      case 'rotate-secret': {
        const app = appByKey(svc, org, parse(rest, { key: { type: 'string' } }).values.key);
        if (app.kind !== 'signing') throw new CliError('app rotate-secret: only signing apps have a secret');
        return presentApp(svc.apps, app, svc.apps.rotateSecret(app));
      }
      case 'regenerate-rsa': {
        const app = appByKey(svc, org, parse(rest, { key: { type: 'string' } }).values.key);
        await svc.apps.regenerateRsa(app, svc.nowIso());
        return presentApp(svc.apps, svc.apps.byId(app.id)!);
      }
      default:
        throw new CliError(`unknown app command ${sub ?? ''} (create, list, rotate-secret, regenerate-rsa)`);
    }
  });
}

export async function runAccountCommand(svc: Service, org: Org, args: string[]): Promise<unknown> {
  const [sub, ...rest] = args;
  return cliFaults(async () => {
    if (sub !== 'create') throw new CliError(`unknown account command ${sub ?? ''} (create)`);
    const { values } = parse(rest, {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', multiple: true },
    });
    if (!values.email || !values.password) throw new CliError('account create: --email and --password are required');
    const roles = (values.role ?? []).map((r) => roleId(svc, org, r));
    // Created by the operator of the data dir, so already verified.
    // Through the records service: the account's triggers run and its creation is audited (as the command line).
    const prepared = prepareAccount(svc, org, {
      email: values.email,
      password: values.password,
      roles: [...new Set(roles)],
      state: 'verified',
    });
    const outcome = await createAccountTriggered(svc, org, prepared);
    if (outcome.kind !== 'created') throw new CliError('account create: the email is taken');
    return presentRecord(accountDef(svc, org), outcome.record, 8);
  });
}

export async function runOrgCommand(svc: Service, org: Org, args: string[]): Promise<unknown> {
  const [sub, key, value, ...extra] = args;
  if (sub !== 'set') throw new CliError(`unknown org command ${sub ?? ''} (set KEY VALUE)`);
  if (key === undefined || value === undefined || extra.length > 0) throw new CliError('usage: org set KEY VALUE');
  return cliFaults(async () => {
    // The org's cap on job runs is a sandbox limit (scriptLimits), the operator's alone
    // (docs/scripting.md#jobs): one key of it, merged into the stored limits under the write lock.
    let patch: Partial<OrgSettings> = {};
    const settings = svc.orgs.updateSettings(org, (stored) => {
      patch =
        key === 'maxJobRunsPerDay' ? { scriptLimits: withJobRunsPerDay(stored, value) } : parseOrgSetting(key, value);
      return patch;
    }).settings;
    // Settings are numbers and booleans, none secret: the entry says what they became.
    recordAudit(svc, org, CLI_ACTOR, {
      cat: 'settings',
      sub: 'set',
      target: { object: 'org', _id: org.code },
      summary: `Set ${key} to ${JSON.stringify(patch[key as keyof typeof patch] ?? Number(value))} (command line).`,
      changes: [key],
    });
    return settings;
  });
}

/** `org set KEY VALUE`: the text as the setting's type, then the one org settings validator. */
export function parseOrgSetting(key: string, raw: string): Partial<OrgSettings> {
  // The hosts scripts' require('http') may call (issue 40): a comma-separated list, '' for none.
  if (key === 'scriptHttpHosts') {
    const hosts = raw
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    return validateOrgSettings({ scriptHttpHosts: hosts });
  }
  if (!(SETTABLE_ORG_SETTINGS as string[]).includes(key)) {
    throw new CliError(
      `org set: unknown setting ${key} (one of ${[...SETTABLE_ORG_SETTINGS, 'maxJobRunsPerDay'].join(', ')})`,
    );
  }
  const boolean = typeof DEFAULT_ORG_SETTINGS[key as keyof OrgSettings] === 'boolean';
  const asNumber = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : undefined;
  const value = boolean ? ({ true: true, false: false } as Record<string, boolean>)[raw] : asNumber;
  // Text that is not of the setting's type reaches the validator as itself, and is refused there.
  return validateOrgSettings({ [key]: value ?? raw });
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

function appByKey(svc: Service, org: Org, key: string | undefined): App {
  if (!key) throw new CliError('--key is required');
  const app = svc.apps.byKey(key);
  if (!app || app.orgId !== org.id) throw new CliError(`no app with key ${key} in org ${org.code}`);
  return app;
}

/** A built-in role name, or the id of a role of this org. */
function roleId(svc: Service, org: Org, role: string): string {
  const builtin = (BUILTIN_ROLES as Record<string, string>)[role];
  if (builtin) return builtin;
  const roleDef = svc.defs.byName(org.id, 'role');
  if (/^[0-9a-f]{24}$/.test(role) && roleDef && svc.store.get(org.id, roleDef, role)) return role;
  throw new CliError(`--role must be ${Object.keys(BUILTIN_ROLES).join(', ')} or the id of a role of this org`);
}

/** Faults raised by the shared validation become one clear CLI line. */
async function cliFaults<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    const details = (err.fault.faults ?? []).map((f) => `${f.path ?? ''}: ${f.reason ?? f.message}`);
    throw new CliError([err.fault.reason ?? err.fault.message, ...details].join('\n  '));
  }
}
