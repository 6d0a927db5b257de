/**
 * Scope chains against the org's schema: a chain naming an object type or property that does not
 * exist parses, but can never grant anything — almost always a typo (`object.read.accounts`).
 * Pure, so the service (token minting, role saving) and the console's live check use one rule.
 */
import { fault } from '../faults';
import { parseScopeChain } from './parse';

export interface ScopeSchemaType {
  /** Object type name, as chains name it (`account`). */
  name: string;
  /** Its collection name in URLs (`accounts`), a frequent mix-up. */
  collection: string;
  /** Every fully qualified property path (`name`, `name.first`), system properties included. */
  paths: readonly string[];
}

/** Why `chain` names something the schema lacks; undefined when it does not (or is not an object chain). */
export function chainSchemaProblem(chain: string, types: readonly ScopeSchemaType[]): string | undefined {
  const parsed = parseScopeChain(chain);
  if (!parsed.ok || parsed.chain.kind !== 'object' || parsed.chain.objectType === null) return undefined;
  const { objectType, propertyPath } = parsed.chain;
  const type = types.find((t) => t.name === objectType);
  if (!type) {
    const near =
      types.find((t) => t.collection === objectType) ??
      types.find((t) => t.name === objectType.replace(/s$/, '') || `${t.name}s` === objectType);
    return `there is no object type "${objectType}"${near ? `; did you mean "${near.name}"?` : ''}`;
  }
  if (propertyPath !== null && !type.paths.includes(propertyPath)) {
    const near = type.paths.find((p) => p.toLowerCase() === propertyPath.toLowerCase());
    return `the ${objectType} type has no property "${propertyPath}"${near ? `; did you mean "${near}"?` : ''}`;
  }
  return undefined;
}

/**
 * Throws `invalidArgument.authScope` for the first chain of `list` the schema cannot satisfy;
 * `path` names the entry like the syntax check does (`scope[1]`).
 */
export function assertScopesInSchema(
  list: readonly string[],
  types: readonly ScopeSchemaType[],
  field = 'scope',
): void {
  list.forEach((chain, index) => {
    const problem = chainSchemaProblem(chain, types);
    if (problem !== undefined) {
      const path = `${field}[${index}]`;
      throw fault('invalidArgument', 'authScope', { path, reason: `${path} "${chain}" can grant nothing: ${problem}` });
    }
  });
}
