/**
 * `admin import --collection NAME --file F.ndjson [--triggers]`: loads NDJSON records into a
 * collection (records/file-import.ts). With `--triggers` (off by default, as the original's
 * imports and as `admin env import --triggers`) each record's create triggers run: a record whose
 * before trigger refuses is a failed line, with the trigger's reason (docs/cli.md).
 */
import { createReadStream, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { importNdjson, type ImportReport } from '../service/records/file-import.js';
import { installTriggers } from '../service/triggers/install.js';
import { afterTriggersSettled } from '../service/triggers/engine.js';
import { CliError } from './args.js';

export async function runImportCommand(
  svc: Service,
  org: Org,
  argv: string[],
  onProgress?: (lines: number) => void,
): Promise<ImportReport> {
  const { values } = parseArgs({
    args: argv,
    options: {
      collection: { type: 'string' },
      file: { type: 'string' },
      triggers: { type: 'boolean', default: false },
    },
  });
  const name = values.collection;
  if (!name) throw new CliError('--collection is required');
  const def = svc.defs.byCollection(org.id, name) ?? svc.defs.byName(org.id, name);
  if (!def) throw new CliError(`no collection named ${name}`);
  if (!values.file || !existsSync(values.file)) throw new CliError(`--file ${values.file ?? ''} does not exist`);
  const input = createReadStream(values.file);
  if (!values.triggers) return importNdjson(svc, org, def, input, onProgress);
  // The command line's service runs no triggers unless a load asks (the server installs them).
  installTriggers(svc);
  // The process ends after the command: its after triggers finish first, then the sandbox stops.
  return importNdjson(svc, org, def, input, onProgress, { triggers: true }).finally(() =>
    afterTriggersSettled(svc).finally(() => svc.closeScripts()),
  );
}
