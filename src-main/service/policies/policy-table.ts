/**
 * The org's policy table: every policy its active libraries declare with `@policy` and every
 * policy of its configuration (configured-policy.ts), in the order they are evaluated (priority,
 * then weight, highest first; then library and declaration order, configured ones last by name).
 * Built once and kept until the org's script records or its stored policies change
 * (scripting/script-generation.ts, policy-store.ts), so a request of an org with no policy costs
 * one map lookup. Library policies the operator switched off (`admin policy disable`) are left out.
 */
import { FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { scriptGeneration } from '../scripting/script-generation.js';
import { libraryRegistrations, libraryScripts } from '../scripting/host-library.js';
import { policyOf, type PolicyDef } from './policy-def.js';
import { configuredPolicyOf } from './configured-policy.js';
import { disabledPolicies, policyGeneration, storedPolicies } from './policy-store.js';

/**
 * A policy the save would refuse now (a library saved before a check, or before policies were
 * applied): it cannot be applied as written, so every request of the org is refused with why —
 * failing closed — until the library is fixed (docs/scripting.md#policies).
 */
export interface BrokenPolicy {
  broken: true;
  label: string;
  reason: string;
}

export type PolicyEntry = PolicyDef | BrokenPolicy;

interface Table {
  generation: string;
  policies: readonly PolicyEntry[];
}

const tables = new WeakMap<Service, Map<number, Table>>();
const NONE: readonly PolicyEntry[] = Object.freeze([]);

function build(svc: Service, org: Org): PolicyEntry[] {
  const found: { entry: PolicyEntry; order: number }[] = [];
  const add = (label: string, read: () => PolicyDef) => {
    const order = found.length;
    try {
      const def = read();
      if (def.active && def.environment !== 'production') found.push({ entry: def, order });
    } catch (e) {
      const reason = e instanceof FaultError ? (e.fault.reason ?? e.message) : String(e);
      found.push({ entry: { broken: true, label, reason }, order });
    }
  };
  const disabled = disabledPolicies(svc, org.id);
  for (const lib of libraryScripts(svc, org)) {
    if (!lib.active) continue;
    for (const reg of libraryRegistrations(lib)) {
      const label = `${reg.metadata.className}.${reg.metadata.methodName}`;
      if (reg.type !== 'policy' || disabled.has(`${lib._id}:${label}`)) continue;
      add(label, () => policyOf(lib._id, reg));
    }
  }
  for (const { name, doc } of storedPolicies(svc, org.id)) add(name, () => configuredPolicyOf(name, doc));
  const rank = (e: PolicyEntry) => ('broken' in e ? [Infinity, Infinity] : [e.priority, e.weight]);
  found.sort((a, b) => {
    const [pa, wa] = rank(a.entry);
    const [pb, wb] = rank(b.entry);
    return (pb ?? 0) - (pa ?? 0) || (wb ?? 0) - (wa ?? 0) || a.order - b.order;
  });
  return found.map((f) => f.entry);
}

/** The org's policies in evaluation order (a shared empty list for most orgs). */
export function orgPolicies(svc: Service, org: Org): readonly PolicyEntry[] {
  let byOrg = tables.get(svc);
  if (!byOrg) tables.set(svc, (byOrg = new Map()));
  const generation = `${scriptGeneration(svc, org.id)}/${policyGeneration(svc, org.id)}`;
  let t = byOrg.get(org.id);
  if (!t || t.generation !== generation) {
    const policies = build(svc, org);
    byOrg.set(org.id, (t = { generation, policies: policies.length === 0 ? NONE : policies }));
  }
  return t.policies;
}
