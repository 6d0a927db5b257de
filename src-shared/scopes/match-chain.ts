/**
 * One parsed chain against one request: does it match, fully or for some properties only, and why.
 * Reasons are phrased to read after the chain's text ("object.read.account.*" grants read on…).
 */
import type {
  AdminChain,
  ObjectChain,
  ScopeChain,
  ScriptChain,
  TargetIdentifier,
  ViewChain,
  DeploymentChain,
} from './chain';
import { isPathWithin } from './property-path';
import type {
  AdminScopeRequest,
  DeploymentScopeRequest,
  ObjectScopeRequest,
  ScopeRequest,
  ScriptScopeRequest,
  ViewScopeRequest,
} from './request';

export interface ChainMatch {
  matched: boolean;
  reason: string;
  /** With `propertyLimited`: the one property path this chain grants. */
  propertyPath?: string;
  propertyLimited?: boolean;
}

/** The part of an object request that picks instances, before any property is considered. */
export type ObjectTarget = Omit<ObjectScopeRequest, 'kind' | 'propertyPath'>;

const full = (reason: string): ChainMatch => ({ matched: true, reason });
const miss = (reason: string): ChainMatch => ({ matched: false, reason });

export function matchChain(chain: ScopeChain, request: ScopeRequest): ChainMatch {
  const kindMiss = miss(`is a ${chain.kind} scope; the request is ${article(request.kind)} ${request.kind} request`);
  switch (chain.kind) {
    case 'all':
      return full('grants everything the subject can do');
    case 'object':
      return request.kind === 'object' ? matchObject(chain, request) : kindMiss;
    case 'script':
      return request.kind === 'script' ? matchScript(chain, request) : kindMiss;
    case 'view':
    case 'deployment':
      return (request.kind === 'view' || request.kind === 'deployment') && request.kind === chain.kind
        ? matchRunnable(chain, request)
        : kindMiss;
    case 'admin':
      return request.kind === 'admin' ? matchAdmin(chain, request) : kindMiss;
  }
}

/** Why the chain does not cover the request's operation, type, subtype or instance; null if it does. */
export function objectTargetMismatch(chain: ObjectChain, target: ObjectTarget): string | null {
  if (chain.operation !== null && chain.operation !== target.operation) {
    return `grants ${chain.operation} only, not ${target.operation}`;
  }
  if (chain.objectType !== null && chain.objectType !== target.objectType) {
    return `is for object type ${chain.objectType}, not ${target.objectType}`;
  }
  if (chain.subtype !== null && chain.subtype !== target.subtype) {
    return target.subtype
      ? `is limited to subtype ${chain.subtype}, not ${target.subtype}`
      : `is limited to subtype ${chain.subtype}, and the request names no subtype`;
  }
  if (chain.identifier?.kind === 'id' && chain.identifier.value !== target.instanceId?.toLowerCase()) {
    return target.instanceId
      ? `is limited to instance ${chain.identifier.value}, not ${target.instanceId}`
      : `is limited to instance ${chain.identifier.value}, and the request names no single instance`;
  }
  return null;
}

function matchObject(chain: ObjectChain, request: ObjectScopeRequest): ChainMatch {
  const mismatch = objectTargetMismatch(chain, request);
  if (mismatch) return miss(mismatch);
  const grant = describeObjectGrant(chain);
  const granted = chain.propertyPath;
  const requested = request.propertyPath || null;
  if (granted === null) return full(grant);
  const limited = (reason: string): ChainMatch => ({
    matched: true,
    propertyLimited: true,
    propertyPath: granted,
    reason,
  });
  if (requested === null)
    return limited(`${grant}; the request is for the whole object, so only ${granted} is allowed`);
  if (isPathWithin(requested, granted)) return full(`${grant}, which covers ${requested}`);
  if (isPathWithin(granted, requested)) return limited(`${grant}; of ${requested}, only ${granted} is allowed`);
  return miss(`grants property ${granted} only, not ${requested}`);
}

function describeObjectGrant(chain: ObjectChain): string {
  const operation = chain.operation ?? 'every operation';
  const type = chain.subtype ? `${chain.objectType}#${chain.subtype}` : chain.objectType;
  let target: string;
  if (type === null) target = 'every object type';
  else if (chain.identifier?.kind === 'id') target = `${type} instance ${chain.identifier.value}`;
  else target = `every ${type} instance`;
  const property = chain.propertyPath ? ` (property ${chain.propertyPath} only)` : '';
  return `grants ${operation} on ${target}${property}`;
}

function matchScript(chain: ScriptChain, request: ScriptScopeRequest): ChainMatch {
  if (chain.target === null || chain.target === '*') return full('grants every script execution');
  if (chain.target === 'runner') {
    return request.action === 'runner'
      ? full('grants the ad-hoc script runner')
      : miss('grants the ad-hoc script runner only');
  }
  if (request.action !== 'route') return miss('grants script routes only');
  return matchIdentifier(chain.identifier, 'route', request.identifier, request.aliases, 'grants');
}

function matchRunnable(
  chain: ViewChain | DeploymentChain,
  request: ViewScopeRequest | DeploymentScopeRequest,
): ChainMatch {
  // `*` and `execute` grant the same: execution is the only thing a view or deployment scope governs.
  return matchIdentifier(chain.identifier, chain.kind, request.identifier, request.aliases, 'grants execution of');
}

function matchIdentifier(
  identifier: TargetIdentifier | null,
  noun: string,
  requested: string | undefined,
  aliases: readonly string[] | undefined,
  verb: string,
): ChainMatch {
  if (identifier === null || identifier.kind === 'any') return full(`${verb} every ${noun}`);
  const names = [requested, ...(aliases ?? [])].filter((name): name is string => Boolean(name));
  const matches = names.some((name) =>
    identifier.kind === 'id' ? name.toLowerCase() === identifier.value : name === identifier.value,
  );
  if (matches) return full(`${verb} ${noun} ${identifier.value}`);
  return miss(
    requested
      ? `is limited to ${noun} ${identifier.value}, not ${requested}`
      : `is limited to ${noun} ${identifier.value}, and the request names no ${noun}`,
  );
}

/**
 * `admin.read` and `admin.update` are separate grants; only `admin.*` (or a bare `admin`) covers
 * both. The spec lists them as alternatives with no order between them, and a provisioning job
 * that only writes should not be able to read every account by implication.
 */
function matchAdmin(chain: AdminChain, request: AdminScopeRequest): ChainMatch {
  if (chain.action === null || chain.action === '*') return full('grants admin read and update');
  if (chain.action === request.action) return full(`grants admin ${chain.action}`);
  return miss(`grants admin ${chain.action} only, not ${request.action} (admin.* grants both)`);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
