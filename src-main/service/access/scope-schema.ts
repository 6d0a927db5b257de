import { propertyPaths } from '../../../src-shared/schema/types.js';
import { assertScopesInSchema, type ScopeSchemaType } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';

/** The org's object types as the shared scope rule reads them. */
export function scopeSchemaOf(svc: Service, orgId: number): ScopeSchemaType[] {
  return svc.defs
    .all(orgId)
    .map((def) => ({ name: def.name, collection: def.collection, paths: propertyPaths(def).map((p) => p.path) }));
}

/** Refuses chains naming a type or property this org does not have (token minting, role saving). */
export function assertScopesExist(svc: Service, orgId: number, scopes: readonly string[], field = 'scope'): void {
  if (scopes.some((chain) => chain.startsWith('object.')))
    assertScopesInSchema(scopes, scopeSchemaOf(svc, orgId), field);
}
