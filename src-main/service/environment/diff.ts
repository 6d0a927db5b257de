import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { type CONFIG_SECTIONS, type Manifest } from './manifest.js';
import { exportResources } from './export.js';
import type { ResourceDoc } from './resources.js';

/**
 * `kept`: in the target and selected by the manifest, but not in the source. Imports never delete
 * (docs/configuration.md: an import ingests and applies the documents it is given, and says
 * nothing of removing others), so such a resource stays as it is and the diff says so rather than
 * claiming a removal that would not happen.
 */
export type ChangeKind = 'added' | 'changed' | 'kept' | 'unchanged';

export interface ResourceChange {
  resource: string;
  change: ChangeKind;
  /** The target's current document (changed, kept, unchanged). */
  before?: ResourceDoc;
  /** The incoming document (added, changed). */
  after?: ResourceDoc;
}

/**
 * What an import would do to an org, per resource. The target is exported with the stream's own
 * manifest (else every section the stream touches), so both sides are in the same normal form.
 * `kept`: in the target and selected by the manifest, but not in the stream; it is reported so a
 * reviewer sees the drift, and left alone.
 */
export function diffImport(svc: Service, org: Org, incoming: ResourceDoc[], manifest?: Manifest): ResourceChange[] {
  const current = exportResources(svc, org, manifest ?? manifestFor(incoming));
  const before = new Map(current.map((d) => [d.resource, d]));
  const out: ResourceChange[] = incoming.map((after) => {
    const was = before.get(after.resource);
    if (!was) return { resource: after.resource, change: 'added', after };
    return {
      resource: after.resource,
      change: canonical(was) === canonical(after) ? 'unchanged' : 'changed',
      before: was,
      after,
    };
  });
  const names = new Set(incoming.map((d) => d.resource));
  for (const doc of current)
    if (!names.has(doc.resource)) out.push({ resource: doc.resource, change: 'kept', before: doc });
  return out;
}

function manifestFor(docs: ResourceDoc[]): Manifest {
  const all = { includes: [() => true], excludes: [] };
  const sectionOf: Record<string, (typeof CONFIG_SECTIONS)[number]> = {
    object: 'objects',
    role: 'roles',
    app: 'apps',
    view: 'views',
    script: 'scripts',
    env: 'settings',
    config: 'configs',
    policy: 'policies',
  };
  const manifest: Manifest = { source: {}, sections: {}, records: new Map() };
  for (const d of docs) {
    const section = sectionOf[d.object];
    if (section) manifest.sections[section] = all;
    else manifest.records.set(d.object, all);
  }
  return manifest;
}

/** JSON with object keys sorted: equal documents give equal text whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
