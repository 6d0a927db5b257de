/**
 * `require('developer').environment` (issue 40; the original's API tests use both): `export`
 * answers the org's configuration as the documents `POST /developer/environment/export` streams,
 * `import(docs, {backup, dryRun, triggers})` applies such documents through the very path
 * `POST /developer/environment/import` takes (the same stream reader, the same importer: its lock,
 * its backup, its dry run, the record rules of every record (records/rules.ts), all or nothing), and answers its
 * `manifest.log` entries. Org administrators only, as those routes are; a scoped token needs
 * `admin.read` to export and `admin.update` to import.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { parseManifest } from '../environment/manifest.js';
import { exportDocuments } from '../environment/export.js';
import { readImportStream } from '../environment/ndjson-input.js';
import { importEnvironment } from '../environment/import.js';
import type { HostCallContext } from './run-types.js';

/** Documents one import from a script may hold (the REST route's stream is bounded by bytes and lines). */
const MAX_IMPORT_DOCS = 10_000;

/** Org administrators only, and a scoped token of one needs admin `action` (also host-api.ts). */
export function requireAdmin(caller: Caller, action: 'read' | 'update', reason: string): void {
  if (!caller.orgAdmin) throw fault('accessDenied', 'principal', { reason });
  if (caller.scopes !== undefined) {
    const decision = checkScope(caller.scopes, { kind: 'admin', action });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
}

/** A yes/no option: absent is false; anything but a boolean is refused (as the route's flags are). */
function flag(options: Record<string, unknown>, name: string): boolean {
  const value = options[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    throw fault('invalidArgument', name, { path: name, reason: `${name} is true or false.` });
  }
  return value;
}

export function developerHost(svc: Service, org: Org, callerFor: (call: HostCallContext) => Caller) {
  return {
    'developer.export'(this: HostCallContext, options: unknown) {
      requireAdmin(callerFor(this), 'read', 'Only org administrators export the environment.');
      const o = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      return exportDocuments(svc, org, parseManifest(o.manifest ?? { includes: ['*'] }));
    },
    async 'developer.import'(this: HostCallContext, docs: unknown, options: unknown) {
      const caller = callerFor(this);
      requireAdmin(caller, 'update', 'Only org administrators import the environment.');
      if (!Array.isArray(docs)) {
        throw fault('invalidArgument', 'cursorOrArrayExpected', {
          reason: 'environment.import takes the documents of an export: an array or a cursor.',
        });
      }
      if (docs.length > MAX_IMPORT_DOCS) {
        throw fault('tooLarge', 'import', {
          reason: `An import from a script holds at most ${MAX_IMPORT_DOCS} documents.`,
        });
      }
      const o = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      const backup = flag(o, 'backup');
      const dryRun = flag(o, 'dryRun');
      const triggers = flag(o, 'triggers');
      // The documents take the route's path from its first step: one NDJSON reader checks them.
      const body = Buffer.from(docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const result = await importEnvironment(svc, org, await readImportStream(body), {
        actorId: caller.accountId,
        backup,
        dryRun,
        triggers,
      });
      return result.log;
    },
  };
}
