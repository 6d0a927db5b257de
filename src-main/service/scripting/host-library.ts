/**
 * Library scripts as modules (issue 40): `require('<export>')` / `import x from '<export>'` in a
 * script loads the org's library script whose `configuration.export` is that name, compiled
 * (language/compiled-cache.ts: transpiled when saved, so a run pays nothing). Libraries are the
 * org's own code: loading one does not depend on the caller's access to script records (a route
 * running for an anonymous caller still loads the libraries it imports), and one org never
 * reaches another's, since records are read by the run's org only.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { compileScript } from './language/compiled-cache.js';
import type { ScriptRegistration } from './language/registrations.js';

export interface LibraryScript {
  _id: string;
  exportName?: string;
  source: string;
  active: boolean;
}

function configurationOf(doc: Record<string, unknown>): Record<string, unknown> {
  const c = doc.configuration;
  return typeof c === 'object' && c !== null && !Array.isArray(c) ? (c as Record<string, unknown>) : {};
}

function asLibrary(record: StoredRecord): LibraryScript | undefined {
  const doc = record.doc as Record<string, unknown>;
  if (doc.type !== 'library' || typeof doc.script !== 'string') return undefined;
  const exportName = configurationOf(doc).export;
  return {
    _id: record._id,
    ...(typeof exportName === 'string' && exportName !== '' ? { exportName } : {}),
    source: doc.script,
    active: doc.active !== false,
  };
}

/** The org's library scripts (every one, active or not). */
export function libraryScripts(svc: Service, org: Org): LibraryScript[] {
  const def = svc.defs.byName(org.id, 'script');
  if (!def) return [];
  const out: LibraryScript[] = [];
  for (const record of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
    const lib = asLibrary(record);
    if (lib) out.push(lib);
  }
  return out;
}

/** The registrations last read per library record: route matching asks on every request. */
const lastRegistrations = new Map<string, { source: string; registrations: ScriptRegistration[] }>();

/** What a library registers with @route/@trigger/@job, from its compiled form (empty when it does not compile). */
export function libraryRegistrations(lib: LibraryScript): ScriptRegistration[] {
  // Comparing the text is cheaper than hashing it for the compiled cache, and it is usually equal.
  const last = lastRegistrations.get(lib._id);
  if (last && last.source === lib.source) return last.registrations;
  const compiled = compileScript(lib.source);
  const registrations = compiled.ok ? compiled.registrations : [];
  if (lib._id !== '') {
    if (lastRegistrations.size >= 5000) lastRegistrations.clear();
    lastRegistrations.set(lib._id, { source: lib.source, registrations });
  }
  return registrations;
}

/** Host function `library.load(by, key)`: `by` is `export` (a name) or `id`. Answers `{id, name, code}`. */
export function libraryHost(svc: Service, org: Org) {
  return {
    'library.load'(by: unknown, key: unknown) {
      if ((by !== 'export' && by !== 'id') || typeof key !== 'string' || key === '' || key.length > 200) {
        throw fault('invalidArgument', 'module', { reason: 'require(name) takes a module name.' });
      }
      const lib = libraryScripts(svc, org).find((l) =>
        by === 'id' ? l._id === key : l.active && l.exportName === key,
      );
      if (!lib) {
        throw fault('notFound', 'module', {
          path: key,
          reason: `There is no module '${key}': no built-in module has that name and no active library script of this org exports it.`,
        });
      }
      const compiled = compileScript(lib.source);
      if (!compiled.ok) {
        throw fault('invalidArgument', 'scriptCompilation', {
          path: key,
          reason: `The library ${key} does not compile: line ${compiled.line}, column ${compiled.column}: ${compiled.message}`,
        });
      }
      return { id: lib._id, name: lib.exportName ?? null, code: compiled.code };
    },
  };
}
