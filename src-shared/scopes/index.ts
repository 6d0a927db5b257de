/** Scope chains (docs/scopes.md#scope-chains): grammar, parser, matcher. Pure: no Node, no DOM. */
export * from './chain';
export { parseScopeChain, isValidScopeChain, validateScopes } from './parse';
export { checkScope, allowedPropertyPaths, NO_SCOPES_EXPLANATION } from './match';
export { propertyAccess, isPathWithin, collapsePaths, type AllowedProperties } from './property-path';
export { describeRequest } from './request';
export type {
  ScopeRequest,
  ObjectScopeRequest,
  ScriptScopeRequest,
  ViewScopeRequest,
  DeploymentScopeRequest,
  AdminScopeRequest,
  ScopeDecision,
  ChainVerdict,
} from './request';
export { MAX_CHAIN_LENGTH, MAX_CHAINS_PER_TOKEN } from './syntax';
export { chainSchemaProblem, assertScopesInSchema, type ScopeSchemaType } from './schema-check';
