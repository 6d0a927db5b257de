/**
 * The operator's view of an org's policies and its switch for them (`npm run admin -- policy …`,
 * docs/cli.md#admin-policy-the-way-back-for-a-locked-out-administrator). A policy can refuse the
 * console's own requests, so the way back must not go through the API: the command line works on
 * the data folder, where no policy applies. Framework-free; the CLI prints what these return.
 */
import { FaultError, fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { libraryRegistrations, libraryScripts } from '../scripting/host-library.js';
import { policyOf, type PolicyDef } from './policy-def.js';
import { configuredPolicyId, configuredPolicyOf } from './configured-policy.js';
import { disabledPolicies, saveStoredPolicy, setPolicyDisabled, storedPolicies } from './policy-store.js';

export interface PolicyListing {
  id: string;
  source: 'library' | 'configuration';
  /** The policy's `name`, else its label (`Class.member` of a library, a configured policy's name). */
  name: string;
  label: string;
  priority: number | null;
  action: string | null;
  /** Whether it is applied to requests now. */
  active: boolean;
  /** Why not, when it is not. */
  inactiveBecause?: string;
  /** A policy that cannot be read: it refuses every request of the org until fixed or disabled. */
  error?: string;
}

/** Every policy of the org, library ones first (as their records come), then configured ones by name. */
export function listPolicies(svc: Service, org: Org): PolicyListing[] {
  const out: PolicyListing[] = [];
  const disabled = disabledPolicies(svc, org.id);
  const entry = (id: string, source: PolicyListing['source'], label: string, read: () => PolicyDef, off?: string) => {
    try {
      const def = read();
      const why =
        off ??
        (!def.active ? 'active is false' : def.environment === 'production' ? 'environment is production' : undefined);
      out.push({
        id,
        source,
        name: def.name ?? label,
        label,
        priority: def.priority,
        action: def.action,
        active: why === undefined,
        ...(why ? { inactiveBecause: why } : {}),
      });
    } catch (e) {
      const error = e instanceof FaultError ? (e.fault.reason ?? e.message) : String(e);
      out.push({ id, source, name: label, label, priority: null, action: null, active: off === undefined, error });
    }
  };
  for (const lib of libraryScripts(svc, org)) {
    for (const reg of libraryRegistrations(lib)) {
      if (reg.type !== 'policy') continue;
      const label = `${reg.metadata.className}.${reg.metadata.methodName}`;
      const id = `${lib._id}:${label}`;
      const off = !lib.active
        ? 'its library is inactive'
        : disabled.has(id)
          ? 'disabled from the command line'
          : undefined;
      entry(id, 'library', label, () => policyOf(lib._id, reg), off);
    }
  }
  for (const { name, doc } of storedPolicies(svc, org.id)) {
    entry(configuredPolicyId(name), 'configuration', name, () => configuredPolicyOf(name, doc));
  }
  return out;
}

/**
 * Switches one policy off (or on again), named by its name, label or id. A configured policy's
 * `active` is set in its document (an export carries it); a library policy is switched off here
 * without touching its library (a record the locked-out administrator would need the API to fix),
 * and stays off, whatever the library's later saves, until `enable`.
 */
export function switchPolicy(svc: Service, org: Org, name: string, on: boolean): PolicyListing {
  const found = listPolicies(svc, org).filter((p) => p.id === name || p.name === name || p.label === name);
  if (found.length === 0) throw fault('notFound', 'policy', { reason: `No policy ${name} in org ${org.code}.` });
  if (found.length > 1) {
    throw fault('invalidArgument', 'policy', {
      reason: `${found.length} policies are named ${name}; name one by its id: ${found.map((p) => p.id).join(', ')}.`,
    });
  }
  const policy = found[0]!;
  if (policy.source === 'configuration') {
    const stored = storedPolicies(svc, org.id).find((p) => configuredPolicyId(p.name) === policy.id);
    if (stored) saveStoredPolicy(svc, org.id, stored.name, { ...stored.doc, active: on });
  } else {
    setPolicyDisabled(svc, org.id, policy.id, !on);
  }
  return listPolicies(svc, org).find((p) => p.id === policy.id) ?? policy;
}
