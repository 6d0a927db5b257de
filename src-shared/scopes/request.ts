/**
 * What the service asks the matcher ("may this caller do X?") and what it answers, plus the
 * plain-words rendering of a request that both the explanations and the console use.
 */
import type { ObjectOperation } from './chain';

export interface ObjectScopeRequest {
  kind: 'object';
  operation: ObjectOperation;
  objectType: string;
  subtype?: string;
  /** Absent for creation and for lists; a chain naming one instance then does not match. */
  instanceId?: string;
  /** Absent (or empty) = the whole object. */
  propertyPath?: string;
}

export interface ScriptScopeRequest {
  kind: 'script';
  /** `execute`: script execution that is neither a route nor the runner. */
  action: 'execute' | 'route' | 'runner';
  /** The route's id or code. */
  identifier?: string;
  /** Other names of the same route (its code when `identifier` is its id, or the reverse). */
  aliases?: readonly string[];
}

export interface ViewScopeRequest {
  kind: 'view';
  identifier: string;
  /** Other names of the same view, so a chain by code matches a request by id and vice versa. */
  aliases?: readonly string[];
}

export interface DeploymentScopeRequest {
  kind: 'deployment';
  identifier: string;
  aliases?: readonly string[];
}

export interface AdminScopeRequest {
  kind: 'admin';
  action: 'read' | 'update';
}

export type ScopeRequest =
  ObjectScopeRequest | ScriptScopeRequest | ViewScopeRequest | DeploymentScopeRequest | AdminScopeRequest;

export interface ChainVerdict {
  chain: string;
  /** False when the chain does not parse; such chains are ignored, never matched. */
  valid: boolean;
  matched: boolean;
  /** Set when the chain matches only some properties of what was asked… */
  propertyLimited?: boolean;
  /** …and then the property path it grants. */
  propertyPath?: string;
  reason: string;
}

export interface ScopeDecision {
  allowed: boolean;
  /** The chain that decided: the first full match, else the first property-limited one. */
  matchedChain?: string;
  /**
   * True when the request is allowed only for some properties (see `propertyPaths`): the
   * service strips the others from reads and refuses writes to them.
   */
  propertyLimited?: boolean;
  /** With `propertyLimited`: the property paths the matching chains grant. */
  propertyPaths?: string[];
  explanation: string;
  perChain: ChainVerdict[];
}

/** "read on account 5f…" — the request in the words an explanation needs. */
export function describeRequest(request: ScopeRequest): string {
  switch (request.kind) {
    case 'object': {
      const type = request.subtype ? `${request.objectType}#${request.subtype}` : request.objectType;
      const instance = request.instanceId ? ` instance ${request.instanceId}` : '';
      const property = request.propertyPath ? ` (property ${request.propertyPath})` : '';
      return `${request.operation} on ${type}${instance}${property}`;
    }
    case 'script':
      if (request.action === 'route')
        return request.identifier ? `script route ${request.identifier}` : 'a script route';
      return request.action === 'runner' ? 'the ad-hoc script runner' : 'script execution';
    case 'view':
      return `execution of view ${request.identifier}`;
    case 'deployment':
      return `execution of deployment ${request.identifier}`;
    case 'admin':
      return `admin ${request.action}`;
  }
}
