/**
 * When an org's script records changed, for the caches built from them (the trigger table,
 * triggers/registry.ts; the job table, jobs/registry.ts): a number that moves when this process
 * writes or deletes a script record of the org, and when another connection commits anything
 * (another service process or the admin CLI on the same data folder, which this process cannot
 * tell apart further). A write of any other record leaves it where it is, so a cache keyed on it
 * is not rebuilt — and the trigger table not read again — on every write.
 */
import type { Service } from '../service.js';
import type { Derivations } from '../objects/stored-record.js';

const ownGenerations = new WeakMap<Service, Map<number, number>>();

/**
 * Watches the store's writes of script records (every insert, update and delete calls the store's
 * `afterWrite`); open-service.ts installs it once, after the derivations it wraps.
 */
export function watchScriptWrites(svc: Service): void {
  const counts = new Map<number, number>();
  ownGenerations.set(svc, counts);
  const inner: Derivations | undefined = svc.store.derivations;
  svc.store.derivations = {
    derive: (orgId, def, doc) => inner?.derive(orgId, def, doc),
    afterWrite: (orgId, def) => {
      inner?.afterWrite(orgId, def);
      if (def.name === 'script') counts.set(orgId, (counts.get(orgId) ?? 0) + 1);
    },
  };
}

/** Moves whenever the org's script records may have changed (see above). */
export function scriptGeneration(svc: Service, orgId: number): string {
  const counts = ownGenerations.get(svc);
  // Unwatched (a service not opened by open-service.ts): nothing may be kept.
  if (!counts) return `unwatched:${++unwatched}`;
  return `${counts.get(orgId) ?? 0}:${svc.versions.externalChanges()}`;
}

let unwatched = 0;
