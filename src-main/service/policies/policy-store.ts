/**
 * Where the org's configured policies (the original's `org.policies`, mdctl's `env/policies`) and
 * the operator's switches on library policies are kept (docs/scripting.md#policies). Written by an
 * environment import (environment/apply-policy.ts) and the admin command line (cli/admin-policy.ts);
 * every write moves `policyGeneration`, so the org's policy table (policy-table.ts) is rebuilt on
 * its next request. Another process's writes (the CLI on a running service's data folder) are seen
 * through the script generation, which moves on any commit of another connection.
 */
import type { Service } from '../service.js';
import { statements } from '../db/statements.js';

export interface StoredPolicy {
  name: string;
  /** The policy as its document reads (mdctl's `policy` document without `object` and `resource`). */
  doc: Record<string, unknown>;
}

const generations = new WeakMap<Service, Map<number, number>>();

/** Moves whenever this process writes the org's configured policies or switches. */
export function policyGeneration(svc: Service, orgId: number): number {
  return generations.get(svc)?.get(orgId) ?? 0;
}

function moved(svc: Service, orgId: number): void {
  let byOrg = generations.get(svc);
  if (!byOrg) generations.set(svc, (byOrg = new Map()));
  byOrg.set(orgId, (byOrg.get(orgId) ?? 0) + 1);
}

/** The org's configured policies, by name. */
export function storedPolicies(svc: Service, orgId: number): StoredPolicy[] {
  const rows = statements(svc.db)
    .fixed('SELECT name, doc FROM org_policies WHERE org_id = ? ORDER BY name')
    .all(orgId) as { name: string; doc: string }[];
  return rows.map((r) => ({ name: r.name, doc: JSON.parse(r.doc) as Record<string, unknown> }));
}

/** Creates or replaces one configured policy (checked by the caller: configured-policy.ts). */
export function saveStoredPolicy(svc: Service, orgId: number, name: string, doc: Record<string, unknown>): void {
  moved(svc, orgId);
  statements(svc.db)
    .fixed('INSERT OR REPLACE INTO org_policies (org_id, name, doc) VALUES (?, ?, ?)')
    .run(orgId, name, JSON.stringify(doc));
}

/** The ids of the library policies the operator switched off (`<library _id>:<Class>.<member>`). */
export function disabledPolicies(svc: Service, orgId: number): Set<string> {
  const rows = statements(svc.db).fixed('SELECT policy FROM disabled_policies WHERE org_id = ?').all(orgId) as {
    policy: string;
  }[];
  return new Set(rows.map((r) => r.policy));
}

export function setPolicyDisabled(svc: Service, orgId: number, policyId: string, disabled: boolean): void {
  moved(svc, orgId);
  const sql = disabled
    ? 'INSERT OR IGNORE INTO disabled_policies (org_id, policy) VALUES (?, ?)'
    : 'DELETE FROM disabled_policies WHERE org_id = ? AND policy = ?';
  statements(svc.db).fixed(sql).run(orgId, policyId);
}
