import type { Service } from './service.js';
import type { Org } from './orgs/orgs.js';
import { initialDefinitions, BUILTIN_ROLES } from './objects/builtin-defs.js';
import { checkPasswordStrength, createAccount } from './accounts/accounts.js';
import { systemInsert } from './objects/system-writes.js';

export interface BootstrapInput {
  code: string;
  name?: string;
  adminEmail: string;
  adminPassword: string;
  /** The administrator's name; empty parts fall back to "Org Administrator". */
  adminName?: { first?: string; last?: string };
}

/**
 * Creates an org ready to use: its object definitions and tables, the built-in roles, the first
 * administrator, and the session app the console logs in with.
 */
export async function bootstrapOrg(svc: Service, input: BootstrapInput): Promise<{ org: Org; consoleAppKey: string }> {
  // Checked before anything is written: a refused password must not leave a half-made org behind.
  checkPasswordStrength(input.adminPassword);
  const created = svc.nowIso();
  let org = svc.orgs.create(input.code, input.name ?? input.code, created);
  for (const def of initialDefinitions()) {
    svc.defs.save(org.id, def);
    svc.store.ensureCollection(org.id, def);
  }
  const roleDef = svc.defs.byName(org.id, 'role')!;
  for (const [name, id] of Object.entries(BUILTIN_ROLES)) {
    systemInsert(
      svc.store,
      'bootstrap',
      org.id,
      roleDef,
      { name: name[0]!.toUpperCase() + name.slice(1), code: name, scopes: [] },
      { _id: id },
    );
  }
  await createAccount(svc, org, {
    email: input.adminEmail,
    password: input.adminPassword,
    name: {
      first: input.adminName?.first?.trim() || 'Org',
      last: input.adminName?.last?.trim() || 'Administrator',
    },
    roles: [BUILTIN_ROLES.administrator],
    state: 'verified',
  });
  const { app } = await svc.apps.create(org.id, 'session', { label: 'Admin console', csrf: true }, created);
  org = svc.orgs.updateSettings(org, { consoleAppKey: app.key });
  return { org, consoleAppKey: app.key };
}
