/**
 * The parsed form of a scope chain (docs/scopes.md#scope-chains, docs/scopes.md).
 *
 * Every segment the chain may omit is `null` here, and `null` always means "all": a chain is a
 * path from the general to the particular, and stopping early leaves the rest unrestricted.
 * `source` keeps the text exactly as written so explanations can quote it.
 */

export type ScopeKind = 'all' | 'object' | 'script' | 'view' | 'deployment' | 'admin';

export const OBJECT_OPERATIONS = ['create', 'read', 'update', 'delete'] as const;
export type ObjectOperation = (typeof OBJECT_OPERATIONS)[number];

/** The target of a chain: `*`, a 24-hex instance id (stored lower-case), or a code name. */
export type TargetIdentifier = { kind: 'any' } | { kind: 'id'; value: string } | { kind: 'code'; value: string };

/** Object instances are never named by code, only by id. */
export type InstanceIdentifier = Extract<TargetIdentifier, { kind: 'any' } | { kind: 'id' }>;

/** A lone `*`: everything the subject can do. */
export interface AllChain {
  kind: 'all';
  source: string;
}

/** `object.<operation>.<type[#subtype]>.<* | id>.<property.path>` */
export interface ObjectChain {
  kind: 'object';
  source: string;
  /** null: every operation — left empty (`object..account`) or omitted (`object`). */
  operation: ObjectOperation | null;
  /** null: every object type (`object.read`). */
  objectType: string | null;
  /** null: any subtype of the type. */
  subtype: string | null;
  /** null: omitted, which covers every instance just as `*` does. */
  identifier: InstanceIdentifier | null;
  /** Fully qualified dotted path; null: every property. */
  propertyPath: string | null;
}

/**
 * `script`, `script.*`, `script.execute`, `script.execute.*`, `script.execute.route[.<id>]`,
 * `script.execute.runner`
 */
export interface ScriptChain {
  kind: 'script';
  source: string;
  /** `execute`, `*` (`script.*`, named in docs/scripting.md#script-routes) or null for a bare `script`; all grant the same. */
  action: '*' | 'execute' | null;
  /** `*`, `route` or `runner`; null when omitted, which grants the same as `*`. */
  target: '*' | 'route' | 'runner' | null;
  /** Only after `route`: one route by id or code; `*` or null = every route. */
  identifier: TargetIdentifier | null;
}

/** `view.<* | execute>.<code | id>` */
export interface ViewChain {
  kind: 'view';
  source: string;
  /** `*` and `execute` grant the same today (execution is the only view action); null = `*`. */
  action: '*' | 'execute' | null;
  /** One view by code or id; `*` or null = every view. */
  identifier: TargetIdentifier | null;
}

/** `deployment.<* | execute>.<code | id>` */
export interface DeploymentChain {
  kind: 'deployment';
  source: string;
  action: '*' | 'execute' | null;
  identifier: TargetIdentifier | null;
}

/** `admin.<* | read | update>` */
export interface AdminChain {
  kind: 'admin';
  source: string;
  /** null (bare `admin`) grants the same as `*`: both read and update. */
  action: '*' | 'read' | 'update' | null;
}

export type ScopeChain = AllChain | ObjectChain | ScriptChain | ViewChain | DeploymentChain | AdminChain;

/** Where a chain went wrong: `position` is a 0-based character offset, `segment` a 0-based segment index. */
export interface ChainFailure {
  ok: false;
  reason: string;
  position: number;
  segment: number;
}

export type ParsedChain = { ok: true; chain: ScopeChain } | ChainFailure;
