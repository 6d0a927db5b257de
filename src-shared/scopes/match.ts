/**
 * Deciding a request against a token's scope chains, with an explanation a person can read (the
 * console's scope tester shows it verbatim; the service logs it on `accessDenied.scope`).
 *
 * Chains are additive: the request is allowed when any one chain matches. No chains, or only
 * invalid ones, allow nothing (docs/scopes.md). Invalid chains are reported, never matched.
 */
import type { ObjectOperation, ScopeChain } from './chain';
import { matchChain, objectTargetMismatch } from './match-chain';
import { parseScopeChain } from './parse';
import { collapsePaths, type AllowedProperties } from './property-path';
import { describeRequest, type ChainVerdict, type ScopeDecision, type ScopeRequest } from './request';

export const NO_SCOPES_EXPLANATION = 'no scopes: nothing allowed';

export function checkScope(chains: readonly string[], request: ScopeRequest): ScopeDecision {
  if (chains.length === 0) return { allowed: false, explanation: NO_SCOPES_EXPLANATION, perChain: [] };

  const perChain = chains.map((chain) => judge(chain, request));
  const fullMatch = perChain.find((verdict) => verdict.matched && !verdict.propertyLimited);
  if (fullMatch) {
    return {
      allowed: true,
      matchedChain: fullMatch.chain,
      explanation: `allowed: "${fullMatch.chain}" ${fullMatch.reason}`,
      perChain,
    };
  }

  const limitedMatches = perChain.filter((verdict) => verdict.matched);
  const [firstLimited] = limitedMatches;
  if (firstLimited) {
    const propertyPaths = collapsePaths(limitedMatches.flatMap((verdict) => verdict.propertyPath ?? []));
    return {
      allowed: true,
      matchedChain: firstLimited.chain,
      propertyLimited: true,
      propertyPaths,
      explanation: `allowed for ${plural(propertyPaths.length, 'property', 'properties')} ${propertyPaths.join(', ')} only: "${firstLimited.chain}" ${firstLimited.reason}`,
      perChain,
    };
  }

  const invalidCount = perChain.filter((verdict) => !verdict.valid).length;
  const ignored =
    invalidCount > 0 ? ` (${invalidCount} invalid ${plural(invalidCount, 'chain', 'chains')} ignored)` : '';
  return {
    allowed: false,
    explanation: `denied: no scope chain grants ${describeRequest(request)}${ignored}`,
    perChain,
  };
}

/**
 * Which properties of one object the chains allow for one operation: `'all'`, or the paths of
 * the matching property-limited chains (an empty list when nothing matches). The service strips
 * the rest from reads and refuses writes to them; see `propertyAccess`.
 */
export function allowedPropertyPaths(
  chains: readonly string[],
  objectType: string,
  operation: ObjectOperation,
  instanceId?: string,
  subtype?: string,
): AllowedProperties {
  const target = { operation, objectType, instanceId, subtype };
  const paths: string[] = [];
  for (const chain of validChains(chains)) {
    if (chain.kind === 'all') return 'all';
    if (chain.kind !== 'object' || objectTargetMismatch(chain, target) !== null) continue;
    if (chain.propertyPath === null) return 'all';
    paths.push(chain.propertyPath);
  }
  return collapsePaths(paths);
}

function judge(text: string, request: ScopeRequest): ChainVerdict {
  const parsed = parseScopeChain(text);
  if (!parsed.ok) {
    return { chain: text, valid: false, matched: false, reason: `invalid chain, ignored: ${parsed.reason}` };
  }
  return { chain: text, valid: true, ...matchChain(parsed.chain, request) };
}

function validChains(chains: readonly string[]): ScopeChain[] {
  return chains.flatMap((text) => {
    const parsed = parseScopeChain(text);
    return parsed.ok ? [parsed.chain] : [];
  });
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
