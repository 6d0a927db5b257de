/**
 * Record rules: what a record must meet beyond its definition before it is written, by every
 * writer (REST, the driver API, scripts' `org.objects`, environment import and deployments, the
 * CLI's loads). A role's scopes must parse and name what exists (here); the parts of the service
 * that own another object type register its rules when a
 * service opens (open-service.ts): a view must compile (views/), a deployment must name existing
 * orgs and a readable source, its secret is sealed (environment/), a script must compile and a
 * route script needs a free method and path (scripting/). The write path (write.ts) runs them
 * inside the write's transaction; it needs no import of the modules that own the rules, which
 * build on it themselves.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Doc, Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { Caller } from '../access/caller.js';
import { validateScopes } from '../../../src-shared/scopes/index.js';
import { assertScopesExist } from '../access/scope-schema.js';

export interface RuleInput {
  org: Org;
  def: ObjectDef;
  /** The values written; a rule may change them (a deployment's secret is sealed before it is stored). */
  values: Record<string, Json>;
  /** The record as it would be stored: the current document with the write applied, nulls removed. */
  merged: Doc;
  /** The stored record on update; undefined on create. */
  current?: StoredRecord;
  /** The account that writes (a caller, or whom an import runs as); undefined for system loads. */
  actorId?: string;
  /** The caller who writes (REST, the driver, scripts); undefined for loads (import, the CLI). */
  caller?: Caller;
}

/** Throws a fault when the write must not happen; runs inside the write transaction, so it is synchronous. */
export type RecordRule = (input: RuleInput) => void;

interface Registered {
  check: RecordRule;
  /** Loads what `check` needs before a batch of writes (the script syntax checker). */
  prepare?: () => Promise<void>;
}

export class RecordRules {
  private readonly byObject = new Map<string, Map<string, Registered>>();

  /** Adds (or, under the same `key`, replaces) a rule for records of `objectName`. */
  register(objectName: string, key: string, check: RecordRule, prepare?: () => Promise<void>): void {
    const rules = this.byObject.get(objectName) ?? new Map<string, Registered>();
    rules.set(key, prepare ? { check, prepare } : { check });
    this.byObject.set(objectName, rules);
  }

  /** Whether records of `objectName` have rules (an import refuses scripts it could not check). */
  has(objectName: string): boolean {
    return (this.byObject.get(objectName)?.size ?? 0) > 0;
  }

  check(input: RuleInput): void {
    for (const rule of this.byObject.get(input.def.name)?.values() ?? []) rule.check(input);
  }

  /** Readies every rule (awaited before writes that run outside a server, which readies them at start). */
  async prepare(): Promise<void> {
    for (const rules of this.byObject.values()) for (const rule of rules.values()) await rule.prepare?.();
  }
}

const registries = new WeakMap<Service, RecordRules>();

/** The rules of a service's records (registered at open). */
export function recordRules(svc: Service): RecordRules {
  let rules = registries.get(svc);
  if (!rules) registries.set(svc, (rules = new RecordRules()));
  return rules;
}

/**
 * Runs the rules of `def` on a write. `current`: the stored record on update, so a PATCH is checked
 * as the record it would leave; `replace`: the values replace the record (an import).
 */
export function checkRecordRules(svc: Service, input: Omit<RuleInput, 'merged'>, replace = false): void {
  const { values, current } = input;
  const merged: Doc = replace || !current ? { ...values } : { ...current.doc, ...values };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  builtinRules(svc, input);
  recordRules(svc).check({ ...input, merged });
}

/** Rules of the built-in types the records service owns: a role's scopes parse and name what exists. */
function builtinRules(svc: Service, { org, def, values }: Omit<RuleInput, 'merged'>): void {
  if (def.name === 'role' && Array.isArray(values.scopes)) {
    validateScopes(values.scopes as string[]);
    assertScopesExist(svc, org.id, values.scopes as string[], 'scopes');
  }
}
