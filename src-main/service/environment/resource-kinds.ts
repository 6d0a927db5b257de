/**
 * Resource kinds that other folders add to environment exports and imports (the org's configured
 * policies: policies/policy-env.ts). Registered per service when it opens (open-service.ts), so
 * this folder never imports theirs (scripts/folder-graph.mjs: they import it). A kind nobody
 * registered is not applied: its documents are refused as records of an unknown type.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Manifest } from './manifest.js';
import type { ResourceDoc } from './resources.js';

export interface ResourceKind {
  /** The documents' `object` (their resource is `<object>.<name>`). */
  object: string;
  /** What an export holds of this kind, sorted, for the manifest's selection. */
  exportDocs(svc: Service, org: Org, manifest: Manifest): ResourceDoc[];
  /** Checks and writes one document; called inside the import's one transaction (apply.ts). */
  apply(svc: Service, org: Org, doc: ResourceDoc): void;
}

const registered = new WeakMap<Service, Map<string, ResourceKind>>();

export function registerResourceKind(svc: Service, kind: ResourceKind): void {
  let kinds = registered.get(svc);
  if (!kinds) registered.set(svc, (kinds = new Map()));
  kinds.set(kind.object, kind);
}

export function resourceKinds(svc: Service): ResourceKind[] {
  return [...(registered.get(svc)?.values() ?? [])];
}

export function resourceKind(svc: Service, object: string): ResourceKind | undefined {
  return registered.get(svc)?.get(object);
}
