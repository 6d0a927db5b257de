/**
 * `admin org create`, `admin env export` and `admin env import`: the same service code as the
 * HTTP routes (orgs/create-org.ts, environment/*), run on a data folder directly.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { FaultError } from '../../src-shared/faults.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { createOrg } from '../service/orgs/create-org.js';
import { parseManifest } from '../service/environment/manifest.js';
import { exportDocuments } from '../service/environment/export.js';
import { readImportStream } from '../service/environment/ndjson-input.js';
import { importEnvironment } from '../service/environment/import.js';
import { auditImport } from '../service/audit/record.js';
import { CLI_ACTOR } from '../service/audit/actor.js';
import { administratorOf } from '../service/environment/actor.js';
import { installTriggers } from '../service/triggers/install.js';
import { afterTriggersSettled } from '../service/triggers/engine.js';
import { CliError } from './args.js';

export async function runOrgCreate(svc: Service, args: string[]): Promise<unknown> {
  const { values } = strict(args, {
    code: { type: 'string' },
    name: { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
  });
  if (!values.code || !values['admin-email'] || !values['admin-password']) {
    throw new CliError('usage: org create --code C --admin-email E --admin-password P [--name N]');
  }
  return faults(() =>
    createOrg(svc, {
      code: values.code,
      name: values.name,
      adminEmail: values['admin-email'],
      adminPassword: values['admin-password'],
    }),
  );
}

/** Prints (returns) what to show; `write` receives output lines for stdout when no file is given. */
export async function runEnvCommand(
  svc: Service,
  org: Org,
  args: string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<unknown> {
  const [sub, ...rest] = args;
  if (sub === 'export') {
    const { values } = strict(rest, { manifest: { type: 'string' }, out: { type: 'string' } });
    const manifest = values.manifest ? readJson(values.manifest) : { includes: ['*'] };
    const docs = await faults(async () => exportDocuments(svc, org, parseManifest(manifest)));
    const text = docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
    if (!values.out) {
      write(text);
      return undefined;
    }
    const file = isDirectory(values.out) ? join(values.out, `${org.code}.ndjson`) : values.out;
    writeFileSync(file, text);
    return { exported: file, resources: docs.length - 3 };
  }
  if (sub === 'import') {
    const { values } = strict(rest, {
      in: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      backup: { type: 'boolean', default: false },
      triggers: { type: 'boolean', default: false },
      as: { type: 'string' },
    });
    if (!values.in) {
      throw new CliError('usage: env import --in FILE [--dry-run] [--backup] [--triggers] [--as ADMIN_EMAIL]');
    }
    const body = readFileSync(values.in);
    // The command line's service runs no triggers unless an import asks (the server installs them).
    if (values.triggers) installTriggers(svc);
    const result = await faults(async () =>
      importEnvironment(svc, org, await readImportStream(body), {
        actorId: administratorOf(svc, org, values.as),
        dryRun: values['dry-run'],
        backup: values.backup,
        triggers: values.triggers,
      }),
    ).finally(async () => {
      // The process ends after the command: its after triggers finish first, then the sandbox stops.
      if (values.triggers) await afterTriggersSettled(svc).finally(() => svc.closeScripts());
    });
    if (!values['dry-run'])
      auditImport(svc, org, { ...CLI_ACTOR, account: administratorOf(svc, org, values.as) }, result.changes);
    const counts = { added: 0, changed: 0, kept: 0, unchanged: 0 };
    for (const c of result.changes) {
      counts[c.change]++;
      if (c.change !== 'unchanged') write(`${c.change.padEnd(8)} ${c.resource}\n`);
    }
    // The operator of the data folder sees where the backup is; API callers get the relative path.
    const backup = result.backupFile ? { backup: join(dirname(svc.db.name), result.backupFile) } : {};
    return { dryRun: values['dry-run'], ...counts, ...backup };
  }
  throw new CliError(`unknown env command ${sub ?? ''} (export, import)`);
}

function strict<O extends Record<string, { type: 'string' | 'boolean'; default?: boolean }>>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`${file}: ${(err as Error).message}`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function faults<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof FaultError) {
      const detail = (err.fault.faults ?? []).map((f) => `\n  ${f.path ?? ''}: ${f.reason ?? f.message}`).join('');
      throw new CliError(`${err.fault.errCode}: ${err.fault.reason ?? err.fault.message}${detail}`);
    }
    throw err;
  }
}
