/**
 * Environment import (docs/configuration.md): validate every resource, then apply them all in
 * one transaction, or nothing. Order: read the stream (all of it parses, and it is complete), take
 * the org's import lock (a database row, so other processes see it), prepare key pairs for new
 * apps, optionally back the database up, then apply every changed resource inside one
 * transaction; any resource that fails rolls everything back and the fault names each one.
 */
import { dirname, join, relative } from 'node:path';
import { mkdirSync } from 'node:fs';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { generateRsaKeyPair } from '../crypto/rsa.js';
import { ensurePrivateFile, makeDatabaseFilesPrivate } from '../db/private-files.js';
import { applyResource, applyRoleIncludes, kindRank, resourceFault, type ApplyContext } from './apply.js';
import { recordRules } from '../records/rules.js';
import { writeTransaction } from '../records/write.js';
import { applyObjectAcls } from './apply-object-acls.js';
import { diffImport, type ResourceChange } from './diff.js';
import { acquireImportLock } from './lock.js';
import type { ImportStream } from './ndjson-input.js';
import { refreshStatistics } from '../db/statistics.js';
import { afterImportTriggers, beforeImportTriggers } from './import-triggers.js';

export interface ImportOptions {
  actorId: string;
  /** Compute and validate everything, write nothing. */
  dryRun?: boolean;
  /** Copy the database aside first (restorable with `npm run admin -- restore`). */
  backup?: boolean;
  /** Run the imported records' triggers (import-triggers.ts); without it none run, as in the original. */
  triggers?: boolean;
}

export interface LogEntry {
  object: 'manifest.log';
  timestamp: string;
  type: 'status' | 'resource';
  level: 'info' | 'warn';
  stage?: 'ingest' | 'backup' | 'import' | 'complete';
  resource?: string;
  change?: string;
  message?: string;
  /** Dry runs only: the target's document now (changed, kept, unchanged) and the incoming one (added, changed), for a side-by-side diff. */
  before?: unknown;
  after?: unknown;
}

export interface ImportResult {
  changes: ResourceChange[];
  log: LogEntry[];
  /** The backup's path relative to the data folder (`backups/…`). */
  backupFile?: string;
}

class DryRunDone extends Error {}

export async function importEnvironment(
  svc: Service,
  org: Org,
  stream: ImportStream,
  opts: ImportOptions,
): Promise<ImportResult> {
  const log: LogEntry[] = [];
  const note = (entry: Omit<LogEntry, 'object' | 'timestamp' | 'level'> & { level?: 'info' | 'warn' }) =>
    log.push({ object: 'manifest.log', timestamp: svc.nowIso(), level: 'info', ...entry });
  note({ type: 'status', stage: 'ingest', message: `${stream.resources.length} resources read.` });
  const release = opts.dryRun ? () => undefined : acquireImportLock(svc, org.id);
  let triggered: Awaited<ReturnType<typeof beforeImportTriggers>> | undefined;
  let result: ImportResult;
  try {
    const changes = diffImport(svc, org, stream.resources, stream.manifest);
    const toApply = changes
      .filter((c) => c.change === 'added' || c.change === 'changed')
      .map((c) => c.after!)
      .sort((a, b) => kindRank(a) - kindRank(b));
    const existingLabels = new Set(svc.apps.list(org.id).map((a) => a.settings.label));
    const newApps = toApply.filter((d) => d.object === 'app' && !existingLabels.has(String(d.label))).length;
    const pairs = await Promise.all(Array.from({ length: newApps }, () => generateRsaKeyPair()));
    // The record rules run inside the transaction, which waits for nothing: what they need (the
    // script syntax checker) is loaded first.
    await recordRules(svc).prepare();
    // Before the transaction (a trigger is a script run): a refusal here writes nothing.
    triggered = opts.triggers
      ? await beforeImportTriggers(svc, org, toApply, { actorId: opts.actorId, dryRun: opts.dryRun === true })
      : undefined;
    let backupFile: string | undefined;
    if (opts.backup && !opts.dryRun) {
      note({ type: 'status', stage: 'backup' });
      backupFile = await backupDatabase(svc, org);
      note({ type: 'status', stage: 'backup', message: `Backup written to ${backupFile} in the data folder.` });
    }
    note({ type: 'status', stage: 'import' });
    const ctx: ApplyContext = {
      svc,
      org: svc.orgs.byId(org.id) ?? org,
      actorId: opts.actorId,
      pairs,
      ...(triggered ? { triggered: triggered.changed } : {}),
    };
    try {
      // One write transaction for the whole import (records/write.ts): hooks after its commit.
      writeTransaction(svc, () => {
        const faults = [];
        for (const doc of toApply) {
          try {
            applyResource(ctx, doc);
          } catch (err) {
            faults.push(resourceFault(doc.resource, err));
          }
        }
        for (const doc of toApply.filter((d) => d.object === 'role')) {
          try {
            applyRoleIncludes(ctx, doc);
          } catch (err) {
            faults.push(resourceFault(doc.resource, err));
          }
        }
        // Object ACLs may name roles of this import: set once every role exists.
        for (const doc of toApply.filter((d) => d.object === 'object')) {
          try {
            applyObjectAcls(ctx, doc);
          } catch (err) {
            faults.push(resourceFault(doc.resource, err));
          }
        }
        if (faults.length > 0) {
          throw fault('validation', 'import', {
            faults,
            reason: `Nothing was imported: ${faults.map((f) => f.reason).join('; ')}`,
          });
        }
        if (opts.dryRun) throw new DryRunDone();
      });
    } catch (err) {
      // Caches may hold what the rolled-back transaction wrote.
      svc.defs.forget(org.id);
      svc.versions.bump();
      if (!(err instanceof DryRunDone)) throw err;
    }
    // New tables, or tables that grew by this import, get statistics (bounded: db/statistics.ts).
    if (!opts.dryRun) refreshStatistics(svc.db, []);
    for (const c of changes) {
      const docs = opts.dryRun
        ? { ...(c.before ? { before: c.before } : {}), ...(c.after ? { after: c.after } : {}) }
        : {};
      note({ type: 'resource', resource: c.resource, change: c.change, ...docs });
    }
    note({ type: 'status', stage: 'complete', message: opts.dryRun ? 'Dry run: nothing was written.' : undefined });
    result = { changes, log, ...(backupFile ? { backupFile } : {}) };
  } finally {
    release();
  }
  // After the commit and the lock: an after trigger cannot undo the import, and may import itself.
  if (triggered && !opts.dryRun) await afterImportTriggers(svc, triggered.records);
  return result;
}

/**
 * A consistent copy of the whole database next to it, under `backups/`, private (0600) like the
 * database itself (db/private-files.ts): it holds the same records, hashes and sealed secrets.
 * Answered as a path relative to the data folder: the import's answer goes to an API caller, who
 * has no business learning where the data folder lies on this machine.
 */
async function backupDatabase(svc: Service, org: Org): Promise<string> {
  const dataDir = dirname(svc.db.name);
  const dir = join(dataDir, 'backups');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = svc.nowIso().replace(/[:.]/g, '-');
  const file = join(dir, `before-import-${org.code}-${stamp}.db`);
  ensurePrivateFile(file);
  await svc.db.backup(file);
  makeDatabaseFilesPrivate(file);
  return relative(dataDir, file);
}
