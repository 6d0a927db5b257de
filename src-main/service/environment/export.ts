import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Manifest } from './manifest.js';
import {
  dependenciesOf,
  exportApps,
  exportObjects,
  exportRecords,
  exportRoles,
  exportScripts,
  exportSettings,
  exportViews,
  type ResourceDoc,
} from './resources.js';
import { resourceKinds } from './resource-kinds.js';
import { exportConfigValues } from './config-values.js';

/**
 * The resources a manifest selects, in the order an import applies them (object types, roles,
 * settings, config values, apps, views, scripts, the kinds other folders add (policies), records), each section sorted by resource name so two exports of
 * equal configurations are equal line for line.
 */
export function exportResources(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const byName = (a: ResourceDoc, b: ResourceDoc) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0);
  return [
    ...exportObjects(svc, org, manifest).sort(byName),
    ...exportRoles(svc, org, manifest).sort(byName),
    ...exportSettings(org, manifest),
    ...exportConfigValues(org, manifest),
    ...exportApps(svc, org, manifest).sort(byName),
    ...exportViews(svc, org, manifest).sort(byName),
    ...exportScripts(svc, org, manifest).sort(byName),
    ...resourceKinds(svc).flatMap((kind) => kind.exportDocs(svc, org, manifest)),
    ...exportRecords(svc, org, manifest),
  ];
}

/** The whole export stream: the resources, then `manifest`, `manifest-dependencies` and, last, `manifest-exports`. */
export function exportDocuments(svc: Service, org: Org, manifest: Manifest): Record<string, unknown>[] {
  const resources = exportResources(svc, org, manifest);
  const dependencies: Record<string, string[]> = {};
  for (const doc of resources) {
    const deps = dependenciesOf(doc);
    if (deps.length > 0) dependencies[doc.resource] = deps;
  }
  return [
    ...resources,
    { ...manifest.source, object: 'manifest' },
    { object: 'manifest-dependencies', dependencies },
    { object: 'manifest-exports', resources: resources.map((r) => r.resource) },
  ];
}
